-- Public access (docs/product.md; docs/architecture.md): visitors read public directories and
-- public profiles only through these functions. Password hashes never leave the database.

create or replace function public.set_directory_password(p_directory_id uuid, p_password text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  dir record;
begin
  select d.owner_id, d.deleted_at into dir from public.link_directories d where d.id = p_directory_id;
  if not found or dir.deleted_at is not null or dir.owner_id is distinct from auth.uid() then
    raise exception 'Directory not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  if coalesce(p_password, '') = '' then
    delete from public.directory_secrets where directory_id = p_directory_id;
    update public.link_directories set has_password = false where id = p_directory_id;
    return;
  end if;
  if public.tier_of(dir.owner_id) = 'free' then
    raise exception 'Upgrade to Pro to protect directories with a password.'
      using errcode = 'P0001', hint = 'limit_reached';
  end if;
  if octet_length(p_password) > 72 then
    raise exception 'The password can be at most 72 bytes.' using errcode = '22023', hint = 'invalid';
  end if;
  insert into public.directory_secrets (directory_id, password_hash)
  values (p_directory_id, extensions.crypt(p_password, extensions.gen_salt('bf')))
  on conflict (directory_id) do update set password_hash = excluded.password_hash, updated_at = now();
  update public.link_directories set is_public = true, has_password = true where id = p_directory_id;
end
$$;

-- {directory, links} of a public directory (or one the caller owns or is a member of).
-- Errors: not_found (P0002) when missing or private; password_required / forbidden (42501).
create or replace function public.get_public_directory(p_directory_id uuid, p_password text default null)
returns json
language plpgsql stable security definer
set search_path = ''
as $$
declare
  dir public.link_directories;
  hash text;
begin
  select * into dir from public.link_directories d where d.id = p_directory_id and d.deleted_at is null;
  if not found or (not dir.is_public and not public.can_view_directory(dir.id)) then
    raise exception 'This directory is not available' using errcode = 'P0002', hint = 'not_found';
  end if;
  if dir.has_password and not public.can_view_directory(dir.id) then
    select s.password_hash into hash from public.directory_secrets s where s.directory_id = dir.id;
    if p_password is null then
      raise exception 'This directory is password protected.' using errcode = '42501', hint = 'password_required';
    end if;
    if hash is null or extensions.crypt(p_password, hash) <> hash then
      raise exception 'Wrong password.' using errcode = '42501', hint = 'forbidden';
    end if;
  end if;
  return json_build_object(
    'directory', json_build_object('id', dir.id, 'name', dir.name, 'description', dir.description,
      'color', dir.color, 'is_public', dir.is_public, 'has_password', dir.has_password,
      'owner_id', dir.owner_id, 'created_at', dir.created_at, 'updated_at', dir.updated_at),
    'links', coalesce((
      select json_agg(json_build_object('id', l.id, 'directory_id', l.directory_id, 'url', l.url,
        'title', l.title, 'notes', l.notes, 'description', l.description, 'tags', l.tags,
        'is_favorite', l.is_favorite, 'created_at', l.created_at) order by l.created_at desc)
      from public.saved_links l where l.directory_id = dir.id and l.deleted_at is null
    ), '[]'::json)
  );
end
$$;

-- {profile: {username, full_name, bio, subscription_tier}, directories: [{..., link_count, links (first 3)}]}
-- for a username (case-insensitive), or null when there is no such user.
create or replace function public.get_public_profile(p_username text) returns json
language sql stable security definer
set search_path = ''
as $$
  select json_build_object(
    'profile', json_build_object('username', p.username, 'full_name', p.full_name, 'bio', p.bio,
                                 'subscription_tier', p.subscription_tier),
    'directories', coalesce((
      select json_agg(json_build_object(
        'id', d.id, 'name', d.name, 'description', d.description, 'color', d.color,
        'has_password', d.has_password,
        'link_count', (select count(*) from public.saved_links l where l.directory_id = d.id and l.deleted_at is null),
        'links', case when d.has_password then '[]'::json else coalesce((
          select json_agg(json_build_object('id', x.id, 'url', x.url, 'title', x.title) order by x.created_at)
          from (select l.id, l.url, l.title, l.created_at from public.saved_links l
                where l.directory_id = d.id and l.deleted_at is null order by l.created_at limit 3) x
        ), '[]'::json) end) order by d.created_at)
      from public.link_directories d
      where d.owner_id = p.id and d.is_public and d.deleted_at is null
    ), '[]'::json))
  from public.user_profiles p
  where lower(p.username) = lower(btrim(p_username)) and p.deleted_at is null
$$;

revoke all on function public.set_directory_password(uuid, text), public.get_public_directory(uuid, text),
  public.get_public_profile(text)
  from public, anon, authenticated;
grant execute on function public.get_public_directory(uuid, text), public.get_public_profile(text)
  to anon, authenticated, service_role;
grant execute on function public.set_directory_password(uuid, text) to authenticated, service_role;
