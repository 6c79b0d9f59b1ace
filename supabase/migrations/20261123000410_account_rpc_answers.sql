-- The account RPCs answer bad input with a 4xx and a plain message, never a 500 or a silent
-- success: a null or over-long username is a 400 (a NUL character cannot reach
-- them: PostgreSQL text holds none, and the API refuses it with a 400 while decoding the
-- arguments); update_my_profile with nothing to change is a 400; a token whose user has no
-- profile (a forged or deleted account) gets 'Not authenticated' (403) from get_my_profile
-- instead of null.

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
                           'bio', p.bio, 'subscription_tier', p.subscription_tier, 'time_zone', p.time_zone)
  into v_profile
  from public.user_profiles p where p.id = auth.uid();
  if not found then
    raise exception 'Not authenticated' using errcode = '28000', hint = 'forbidden';
  end if;
  return v_profile;
end
$$;

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
