-- The private calendar feed: the hashed tokens, and the functions of
-- supabase/schemas/calendar_feed.sql.

create table private.calendar_feeds (
  user_id uuid primary key references auth.users (id) on delete cascade,
  token_hash bytea not null unique,
  created_at timestamptz not null default now()
);
revoke all on table private.calendar_feeds from public, anon, authenticated;
alter table private.calendar_feeds enable row level security;

create or replace function public.create_calendar_feed() returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  v_token text;
begin
  if uid is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  if public.tier_of(uid) = 'free' then
    raise exception 'Calendar sync is a Pro feature.' using errcode = 'P0001', hint = 'limit_reached';
  end if;
  perform private.throttle('calendar_feed_create', uid::text, 20, interval '1 hour',
                           'Too many new feed addresses. Please try again later.');
  -- 32 random bytes, base64url without padding: 43 characters.
  v_token := rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=');
  insert into private.calendar_feeds (user_id, token_hash, created_at)
  values (uid, sha256(convert_to(v_token, 'UTF8')), now())
  on conflict (user_id) do update set token_hash = excluded.token_hash, created_at = excluded.created_at;
  return v_token;
end
$$;
revoke all on function public.create_calendar_feed() from public, anon, authenticated, service_role;
grant execute on function public.create_calendar_feed() to authenticated;

-- Turns the caller's feed off: its address answers 404 from now on.
create or replace function public.revoke_calendar_feed() returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  delete from private.calendar_feeds f where f.user_id = auth.uid();
end
$$;
revoke all on function public.revoke_calendar_feed() from public, anon, authenticated, service_role;
grant execute on function public.revoke_calendar_feed() to authenticated;

-- Whether the caller has a feed, and since when (the token itself cannot be shown again).
create or replace function public.calendar_feed_status() returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select jsonb_build_object('active', f.user_id is not null, 'created_at', f.created_at)
  from (select auth.uid() as uid) me
  left join private.calendar_feeds f on f.user_id = me.uid
  where me.uid is not null
$$;
revoke all on function public.calendar_feed_status() from public, anon, authenticated, service_role;
grant execute on function public.calendar_feed_status() to authenticated;

-- The feed of a token: {time_zone, events} of its user, or null for a wrong or revoked token.
-- Misses are counted per client address (a token cannot be guessed, but the lookups can flood),
-- and a live feed answers at most 120 times an hour. A feed whose owner is back on Free answers
-- like a revoked one until they upgrade again (the address is kept).
create or replace function public.calendar_feed(p_token text) returns jsonb
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_client text := private.client_address();
  v_user uuid;
  v_zone text;
begin
  perform private.throttle_check('calendar_feed_miss', v_client, 30, interval '15 minutes',
                                 'Too many requests. Please try again later.');
  if p_token ~ '^[A-Za-z0-9_-]{43}$' then
    select f.user_id into v_user from private.calendar_feeds f
    where f.token_hash = sha256(convert_to(p_token, 'UTF8'));
  end if;
  if v_user is not null and public.tier_of(v_user) = 'free' then
    v_user := null;
  end if;
  if v_user is null then
    perform private.throttle_record('calendar_feed_miss', v_client);
    return null;
  end if;
  perform private.throttle('calendar_feed', v_user::text, 120, interval '1 hour',
                           'Too many requests. Please try again later.');
  select p.time_zone into v_zone from public.user_profiles p where p.id = v_user;
  return jsonb_build_object(
    'time_zone', coalesce(v_zone, 'UTC'),
    'events', coalesce((
      select jsonb_agg(to_jsonb(e) - 'txid' - 'deleted_at' order by e.starts_at nulls last, e.id)
      from public.calendar_events e
      where e.owner_id = v_user and e.deleted_at is null), '[]'::jsonb));
end
$$;
revoke all on function public.calendar_feed(p_token text) from public, anon, authenticated, service_role;
grant execute on function public.calendar_feed(p_token text) to service_role;
