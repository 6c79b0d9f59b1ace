-- Public access hardened.
--
-- Limits (private.throttle_attempts; a throttled call answers 429 with Retry-After):
--   directory passwords  10 wrong passwords per 15 minutes per (directory, client address), and
--                        100 wrong passwords per hour per directory from all addresses together.
--                        Only wrong passwords count; while either limit is reached every attempt on
--                        that directory (a right password too) is refused, so guessing cannot go on.
--                        The directory's owner and members never need its password.
--
-- Directory passwords are bcrypt hashes of cost 10 (cost-6 hashes from before are rehashed at
-- the next right password); a password over 72 bytes (bcrypt's limit) is refused, never cut.
--
-- Answers (PostgREST status in brackets): an unknown, deleted or private directory is 'This
-- directory is not available' (404, hint not_found); a missing password 'This directory is password
-- protected.' (401/403, hint password_required); a wrong one 'Wrong password.' (403, hint forbidden).
-- The wrong password is not raised, since a raise would roll back the attempt just recorded: the
-- function returns PostgREST's error body {code, message, details, hint} and sets response.status
-- to 403, which PostgREST answers as it would the error, committing the transaction.

-- Takes the transaction's lock on one throttle key, so concurrent attempts are counted one after
-- the other (each sees the attempts the ones before it recorded).
create or replace function private.throttle_lock(p_bucket text, p_subject text) returns void
language sql volatile
set search_path = ''
as $$
  select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('throttle'),
                                          pg_catalog.hashtext(p_bucket || ':' || coalesce(p_subject, '')))
$$;

-- Raises 429 when the limit is reached; records nothing.
create or replace function private.throttle_check(p_bucket text, p_subject text, p_max integer, p_window interval,
                                                  p_message text) returns void
language plpgsql volatile
set search_path = ''
as $$
declare
  v_wait integer := private.throttle_wait(p_bucket, p_subject, p_max, p_window);
begin
  if v_wait > 0 then
    perform private.throttle_raise(v_wait, p_message);
  end if;
end
$$;

revoke all on function private.throttle_lock(text, text),
  private.throttle_check(text, text, integer, interval, text)
  from public, anon, authenticated;
grant execute on function private.throttle_lock(text, text),
  private.throttle_check(text, text, integer, interval, text)
  to service_role;

create or replace function public.set_directory_password(p_directory_id uuid, p_password text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  dir record;
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '42501', hint = 'forbidden';
  end if;
  if p_directory_id is null then
    raise exception 'A directory id is required.' using errcode = '22023', hint = 'invalid';
  end if;
  select d.owner_id, d.deleted_at into dir from public.link_directories d where d.id = p_directory_id;
  if not found or dir.deleted_at is not null or dir.owner_id is distinct from auth.uid() then
    raise exception 'Directory not found.' using errcode = 'PT404', hint = 'not_found';
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
  values (p_directory_id, extensions.crypt(p_password, extensions.gen_salt('bf', 10)))
  on conflict (directory_id) do update set password_hash = excluded.password_hash, updated_at = now();
  update public.link_directories set is_public = true, has_password = true where id = p_directory_id;
end
$$;

-- {directory, links} of a public directory (or one the caller owns or is a member of).
create or replace function public.get_public_directory(p_directory_id uuid, p_password text default null)
returns json
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  dir public.link_directories;
  hash text;
  v_client text;
  v_message constant text := 'Too many attempts. Please wait a few minutes and try again.';
begin
  if p_directory_id is null then
    raise exception 'A directory id is required.' using errcode = '22023', hint = 'invalid';
  end if;
  select * into dir from public.link_directories d where d.id = p_directory_id and d.deleted_at is null;
  if not found or (not dir.is_public and not public.can_view_directory(dir.id)) then
    raise exception 'This directory is not available' using errcode = 'PT404', hint = 'not_found';
  end if;
  if dir.has_password and not public.can_view_directory(dir.id) then
    if p_password is null then
      raise exception 'This directory is password protected.' using errcode = '42501', hint = 'password_required';
    end if;
    v_client := private.client_address();
    perform private.throttle_lock('directory_password', dir.id::text);
    perform private.throttle_check('directory_password', dir.id || ' ' || v_client, 10, interval '15 minutes',
                                   v_message);
    perform private.throttle_check('directory_password_all', dir.id::text, 100, interval '1 hour', v_message);
    select s.password_hash into hash from public.directory_secrets s where s.directory_id = dir.id;
    if hash is null or octet_length(p_password) > 72 or extensions.crypt(p_password, hash) <> hash then
      perform private.throttle_record('directory_password', dir.id || ' ' || v_client);
      perform private.throttle_record('directory_password_all', dir.id::text);
      perform set_config('response.status', '403', true);
      return json_build_object('code', '42501', 'message', 'Wrong password.', 'details', null, 'hint', 'forbidden');
    end if;
    if hash ~ '^\$2[aby]\$0[0-9]\$' then
      -- A hash from before cost 10: stored again at cost 10 now that the password is known.
      update public.directory_secrets s
      set password_hash = extensions.crypt(p_password, extensions.gen_salt('bf', 10)), updated_at = now()
      where s.directory_id = dir.id;
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

-- {profile, directories} for a username (case-insensitive), or null when there is no such user.
create or replace function public.get_public_profile(p_username text) returns json
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if p_username is null then
    raise exception 'A username is required.' using errcode = '22023', hint = 'invalid';
  end if;
  return (
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
    where char_length(p_username) <= 100 and lower(p.username) = lower(btrim(p_username)) and p.deleted_at is null
  );
end
$$;
