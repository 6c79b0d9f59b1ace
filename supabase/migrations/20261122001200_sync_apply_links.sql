-- sync_push mutation families, part 1: profile, directory, link, member. Each runs as the caller
-- (RLS and the rule triggers apply) and raises on refusal; sync_push maps the error to a code.
-- Updates carry only the fields they change ("absolute values only"); deletes are soft.

create or replace function public.sync_apply_profile(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
begin
  update public.user_profiles p set
    username = case when p_args ? 'username' then p_args ->> 'username' else p.username end,
    bio = case when p_args ? 'bio' then p_args ->> 'bio' else p.bio end,
    full_name = case when p_args ? 'full_name' then p_args ->> 'full_name' else p.full_name end,
    time_zone = case when p_args ? 'time_zone' then p_args ->> 'time_zone' else p.time_zone end
  where p.id = auth.uid();
  if not found then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
end
$$;

create or replace function public.sync_apply_directory(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := public.sync_uuid(p_args, 'id');
  v_public boolean;
begin
  if p_args ? 'is_public' then
    v_public := public.sync_bool(p_args, 'is_public');
  end if;
  case p_name
    when 'directory.create' then
      insert into public.link_directories (id, name, description, color, is_public, owner_id)
      values (v_id, p_args ->> 'name', p_args ->> 'description', p_args ->> 'color', coalesce(v_public, false), auth.uid());
      -- A password needs a public directory: is_public false (or absent, so private) ignores it.
      if coalesce(v_public, false) and coalesce(p_args ->> 'password', '') <> '' then
        perform public.set_directory_password(v_id, p_args ->> 'password');
      end if;
    when 'directory.update' then
      update public.link_directories d set
        name = case when p_args ? 'name' then p_args ->> 'name' else d.name end,
        description = case when p_args ? 'description' then p_args ->> 'description' else d.description end,
        color = case when p_args ? 'color' then p_args ->> 'color' else d.color end,
        is_public = coalesce(v_public, d.is_public)
      where d.id = v_id and d.deleted_at is null;
      if not found then
        perform public.sync_missing('link_directories', v_id);
      end if;
      -- is_public false clears the password (the rule trigger does it); null or '' clears it too.
      if p_args ? 'password' and v_public is distinct from false then
        perform public.set_directory_password(v_id, p_args ->> 'password');
      end if;
    when 'directory.delete' then
      update public.link_directories d set deleted_at = now() where d.id = v_id and d.deleted_at is null;
      if not found then
        perform public.sync_missing('link_directories', v_id, true);
      end if;
  end case;
end
$$;

create or replace function public.sync_apply_link(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := public.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'link.create' then
      insert into public.saved_links (id, directory_id, url, title, notes, description, tags, is_favorite)
      values (v_id, public.sync_uuid(p_args, 'directory_id'), p_args ->> 'url', p_args ->> 'title',
              p_args ->> 'notes', p_args ->> 'description', public.sync_text_array(p_args -> 'tags'),
              case when p_args ? 'is_favorite' then public.sync_bool(p_args, 'is_favorite') else false end);
      return;
    when 'link.update' then
      update public.saved_links l set
        url = case when p_args ? 'url' then p_args ->> 'url' else l.url end,
        title = case when p_args ? 'title' then p_args ->> 'title' else l.title end,
        notes = case when p_args ? 'notes' then p_args ->> 'notes' else l.notes end,
        description = case when p_args ? 'description' then p_args ->> 'description' else l.description end,
        tags = case when p_args ? 'tags' then public.sync_text_array(p_args -> 'tags') else l.tags end
      where l.id = v_id and l.deleted_at is null;
    when 'link.set_favorite' then
      update public.saved_links l set is_favorite = public.sync_bool(p_args, 'value')
      where l.id = v_id and l.deleted_at is null;
    when 'link.delete' then
      update public.saved_links l set deleted_at = now() where l.id = v_id and l.deleted_at is null;
  end case;
  if not found then
    perform public.sync_missing('saved_links', v_id, p_name = 'link.delete');
  end if;
end
$$;

create or replace function public.sync_apply_member(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := public.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'member.invite' then
      insert into public.directory_members (id, directory_id, user_email, role)
      values (v_id, public.sync_uuid(p_args, 'directory_id'), p_args ->> 'user_email',
              coalesce(p_args ->> 'role', 'viewer'));
      return;
    when 'member.set_role' then
      update public.directory_members m set role = p_args ->> 'role' where m.id = v_id and m.deleted_at is null;
    when 'member.remove' then
      update public.directory_members m set deleted_at = now() where m.id = v_id and m.deleted_at is null;
  end case;
  if not found then
    perform public.sync_missing('directory_members', v_id, p_name = 'member.remove');
  end if;
end
$$;

revoke all on function public.sync_apply_profile(text, jsonb), public.sync_apply_directory(text, jsonb),
  public.sync_apply_link(text, jsonb), public.sync_apply_member(text, jsonb)
  from public, anon;
grant execute on function public.sync_apply_profile(text, jsonb), public.sync_apply_directory(text, jsonb),
  public.sync_apply_link(text, jsonb), public.sync_apply_member(text, jsonb)
  to authenticated, service_role;
