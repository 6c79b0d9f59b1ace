-- A non-owner's insert into a shared directory was answered with the owner's plan limit
-- ('Upgrade to Pro to assign the Editor role.', 'Upgrade to Pro to save more links.') instead of
-- forbidden: the rule triggers run before the RLS check of an INSERT. (An UPDATE or a delete is
-- not affected: RLS hides the row before any trigger fires.) link.create and member.invite now ask
-- first whether the caller may write to the directory; a missing directory stays not_found (the
-- trigger says so). Otherwise the functions are unchanged (..._sync_apply_links.sql).

create or replace function public.sync_insert_allowed(p_directory uuid, p_owner_only boolean) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.link_directories d where d.id = p_directory and d.deleted_at is null)
     and not (case when p_owner_only then public.is_directory_owner(p_directory)
                   else public.can_edit_directory(p_directory) end) then
    raise exception 'You do not have permission to change this.' using errcode = '42501';
  end if;
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
      perform public.sync_insert_allowed(public.sync_uuid(p_args, 'directory_id'), false);
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
      perform public.sync_insert_allowed(public.sync_uuid(p_args, 'directory_id'), true);
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

revoke all on function public.sync_insert_allowed(uuid, boolean) from public, anon;
grant execute on function public.sync_insert_allowed(uuid, boolean) to authenticated, service_role;
