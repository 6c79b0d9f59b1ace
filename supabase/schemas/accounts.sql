-- Accounts: sign-up (the profile trigger), usernames, the own profile, e-mail changes, locking.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- The caller's e-mail address, lower-cased, only once it is confirmed (never the JWT's claim,
-- which names an unconfirmed address right after sign-up). Directory memberships bind to it.
-- PL/pgSQL: the policies and sync functions ask it about 16 times a push and pull, and a security
-- definer SQL function is planned again on every call where PL/pgSQL keeps its plan.
create or replace function private.confirmed_email() returns text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select lower(u.email) from auth.users u where u.id = auth.uid() and u.email_confirmed_at is not null);
end
$$;
revoke all on function private.confirmed_email() from public, anon, authenticated, service_role;
grant execute on function private.confirmed_email() to authenticated, service_role;

-- The confirmed address of any account (the rule triggers check the row's user, not only the caller).
create or replace function private.confirmed_email_of(p_user uuid) returns text
language sql stable security definer
set search_path = ''
as $$
  select lower(u.email) from auth.users u where u.id = p_user and u.email_confirmed_at is not null
$$;
revoke all on function private.confirmed_email_of(p_user uuid) from public, anon, authenticated, service_role;
grant execute on function private.confirmed_email_of(p_user uuid) to service_role;

create or replace function public.claim_username(p_username text) returns json
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  wanted text := lower(btrim(coalesce(p_username, '')));
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  if char_length(wanted) > 30 then
    raise exception 'A username can be at most 30 characters.' using errcode = '22001', hint = 'invalid';
  end if;
  if wanted !~ '^[a-z0-9_-]{3,30}$' then
    raise exception 'Please choose a username (min 3 chars).' using errcode = '22023', hint = 'invalid';
  end if;
  begin
    update public.user_profiles set username = wanted where id = auth.uid();
  exception when unique_violation then
    raise exception 'Username taken, try another.' using errcode = '23505', hint = 'conflict';
  end;
  return public.get_my_profile();
end
$$;
revoke all on function public.claim_username(p_username text) from public, anon, authenticated, service_role;
grant execute on function public.claim_username(p_username text) to authenticated, service_role;

create or replace function public.get_my_profile() returns json
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_profile json;
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  select json_build_object('id', p.id, 'email', p.email, 'username', p.username, 'full_name', p.full_name,
                           'bio', p.bio, 'subscription_tier', p.subscription_tier, 'time_zone', p.time_zone,
                           'updated_at', p.updated_at)
  into v_profile
  from public.user_profiles p where p.id = auth.uid();
  if not found then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  return v_profile;
end
$$;
revoke all on function public.get_my_profile() from public, anon, authenticated, service_role;
grant execute on function public.get_my_profile() to anon, authenticated, service_role;

create or replace function public.handle_new_user() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  candidate text;
  chosen text;
  full_name text := left(btrim(coalesce(new.raw_user_meta_data ->> 'full_name', '')), 200);
  -- The zone the signing-up device reported, when the server knows it; else the column's UTC.
  zone text := (select z.name from pg_catalog.pg_timezone_names z
                where z.name = left(new.raw_user_meta_data ->> 'time_zone', 64) limit 1);
begin
  foreach candidate in array array[new.raw_user_meta_data ->> 'username', split_part(coalesce(new.email, ''), '@', 1)] loop
    candidate := public.sanitize_username(candidate);
    if char_length(candidate) >= 3
       and not exists (select 1 from public.user_profiles p where lower(p.username) = candidate) then
      chosen := candidate;
      exit;
    end if;
  end loop;
  begin
    insert into public.user_profiles (id, email, username, full_name, time_zone)
    values (new.id, new.email, chosen, full_name, coalesce(zone, 'UTC'));
  exception when unique_violation then
    -- Taken by a concurrent sign-up: the account still gets its profile, without a username.
    insert into public.user_profiles (id, email, username, full_name, time_zone)
    values (new.id, new.email, null, full_name, coalesce(zone, 'UTC'));
  end;
  return null;
end
$$;
revoke all on function public.handle_new_user() from public, anon, authenticated, service_role;
grant execute on function public.handle_new_user() to service_role;

create or replace function public.handle_user_email_change() returns trigger
language plpgsql security definer
set search_path = ''
as $$
begin
  update public.user_profiles set email = new.email where id = new.id;
  return null;
end
$$;
revoke all on function public.handle_user_email_change() from public, anon, authenticated, service_role;
grant execute on function public.handle_user_email_change() to service_role;

-- Serialises limit checks per account, so two concurrent inserts cannot both pass a count.
create or replace function public.lock_account(p_user uuid) returns void
language sql volatile security definer
set search_path = ''
as $$
  select null from public.user_profiles p where p.id = p_user for no key update
$$;
revoke all on function public.lock_account(p_user uuid) from public, anon, authenticated, service_role;
grant execute on function public.lock_account(p_user uuid) to service_role;

create or replace function public.sanitize_username(p_value text) returns text
language sql immutable
set search_path = ''
as $$
  select left(regexp_replace(lower(coalesce(p_value, '')), '[^a-z0-9_-]', '', 'g'), 30)
$$;
revoke all on function public.sanitize_username(p_value text) from public, anon, authenticated, service_role;
grant execute on function public.sanitize_username(p_value text) to service_role;

-- Updates the caller's profile; a null argument leaves that field unchanged, and at least one is needed.
create or replace function public.update_my_profile(
  p_username text default null, p_full_name text default null, p_bio text default null, p_time_zone text default null
) returns json
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  if p_username is null and p_full_name is null and p_bio is null and p_time_zone is null then
    raise exception 'Nothing to update.' using errcode = '22023', hint = 'invalid';
  end if;
  if p_username is not null then
    perform public.claim_username(p_username);
  end if;
  update public.user_profiles p set
    full_name = coalesce(p_full_name, p.full_name),
    bio = coalesce(p_bio, p.bio),
    time_zone = coalesce(p_time_zone, p.time_zone)
  where p.id = auth.uid();
  return public.get_my_profile();
end
$$;
revoke all on function public.update_my_profile(p_username text, p_full_name text, p_bio text, p_time_zone text) from public, anon, authenticated, service_role;
grant execute on function public.update_my_profile(p_username text, p_full_name text, p_bio text, p_time_zone text) to authenticated, service_role;

create or replace function public.username_available(p_username text) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
declare
  wanted text := lower(btrim(p_username));
begin
  if p_username is null then
    raise exception 'A username is required.' using errcode = '22023', hint = 'invalid';
  end if;
  if char_length(wanted) > 30 then
    raise exception 'A username can be at most 30 characters.' using errcode = '22001', hint = 'invalid';
  end if;
  return wanted ~ '^[a-z0-9_-]{3,30}$'
     and not exists (select 1 from public.user_profiles p where lower(p.username) = wanted and p.id is distinct from auth.uid());
end
$$;
revoke all on function public.username_available(p_username text) from public, anon, authenticated, service_role;
grant execute on function public.username_available(p_username text) to anon, authenticated, service_role;

create or replace trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

create or replace trigger on_auth_user_email_changed after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function public.handle_user_email_change();
