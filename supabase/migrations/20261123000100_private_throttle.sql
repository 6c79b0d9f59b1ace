-- Foundations of the hardening: a schema for internals that PostgREST does not expose
-- (it serves only `public`), the attempts table behind every throttle, and the caller's
-- confirmed e-mail address, the only one a directory membership may bind to.

create schema if not exists private;
revoke all on schema private from public;
-- Invoker functions in public (sync_push, sync_pull) call internals here as the caller.
grant usage on schema private to authenticated, service_role;

-- One row per counted attempt. `bucket` names the limit ('directory_password', 'contact',
-- 'sign_in', ...), `subject` what it is keyed on (a client address, a user id, an e-mail, a
-- directory id). Rows older than a day are deleted by private.throttle_purge().
create table private.throttle_attempts (
  id bigint generated always as identity primary key,
  bucket text not null check (char_length(bucket) <= 64),
  subject text not null check (char_length(subject) <= 320),
  attempted_at timestamptz not null default clock_timestamp()
);
create index throttle_attempts_key on private.throttle_attempts (bucket, subject, attempted_at);
create index throttle_attempts_age on private.throttle_attempts (attempted_at);
revoke all on private.throttle_attempts from public, anon, authenticated;
grant all on private.throttle_attempts to service_role;

-- Seconds until one more attempt is allowed under (p_max attempts per p_window), 0 when it is
-- allowed now. Does not record anything.
create or replace function private.throttle_wait(p_bucket text, p_subject text, p_max integer, p_window interval)
returns integer
language sql stable security definer
set search_path = ''
as $$
  select coalesce((
    select greatest(1, ceil(extract(epoch from (a.attempted_at + p_window - clock_timestamp())))::integer)
    from (
      select t.attempted_at from private.throttle_attempts t
      where t.bucket = p_bucket and t.subject = coalesce(p_subject, '')
        and t.attempted_at > clock_timestamp() - p_window
      order by t.attempted_at desc
      offset greatest(p_max - 1, 0) limit 1
    ) a
  ), 0)
$$;

-- Records one attempt.
create or replace function private.throttle_record(p_bucket text, p_subject text) returns void
language sql volatile security definer
set search_path = ''
as $$
  insert into private.throttle_attempts (bucket, subject) values (p_bucket, left(coalesce(p_subject, ''), 320))
$$;

-- Raises the throttled error, which PostgREST answers with 429, the message and Retry-After
-- (PostgREST's `raise sqlstate 'PGRST'` form: message and detail are JSON).
create or replace function private.throttle_raise(p_wait integer, p_message text) returns void
language plpgsql volatile
set search_path = ''
as $$
begin
  raise sqlstate 'PGRST' using
    message = json_build_object('code', 'over_request_rate_limit', 'message', p_message,
                                'details', null, 'hint', 'throttled')::text,
    detail = json_build_object('status', 429, 'headers',
                               json_build_object('Retry-After', greatest(p_wait, 1)::text))::text;
end
$$;

-- Checks the limit, raising 429 when it is reached, and records the attempt otherwise.
create or replace function private.throttle(p_bucket text, p_subject text, p_max integer, p_window interval,
                                            p_message text default 'Too many requests. Please try again later.')
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_wait integer := private.throttle_wait(p_bucket, p_subject, p_max, p_window);
begin
  if v_wait > 0 then
    perform private.throttle_raise(v_wait, p_message);
  end if;
  perform private.throttle_record(p_bucket, p_subject);
end
$$;

create or replace function private.throttle_purge() returns integer
language sql volatile security definer
set search_path = ''
as $$
  with gone as (delete from private.throttle_attempts where attempted_at < clock_timestamp() - interval '1 day'
                returning 1)
  select count(*)::integer from gone
$$;

-- The client address of the current request: the first X-Forwarded-For entry that the API
-- gateway set (hosted Supabase's gateway, or the local stack, which overwrites any value the
-- client sent unless a trusted proxy is configured). 'unknown' without one.
create or replace function private.client_address() returns text
language sql stable
set search_path = ''
as $$
  select coalesce(
    nullif(btrim(split_part(
      coalesce(nullif(current_setting('request.headers', true), '')::json ->> 'x-forwarded-for', ''), ',', 1)), ''),
    'unknown')
$$;

-- The caller's e-mail address, lower-cased, only once it is confirmed (never the JWT's claim,
-- which names an unconfirmed address right after sign-up). Directory memberships bind to it.
create or replace function private.confirmed_email() returns text
language sql stable security definer
set search_path = ''
as $$
  select lower(u.email) from auth.users u where u.id = auth.uid() and u.email_confirmed_at is not null
$$;

revoke all on all functions in schema private from public, anon, authenticated;
grant execute on function private.confirmed_email(), private.client_address(),
  private.throttle(text, text, integer, interval, text), private.throttle_wait(text, text, integer, interval),
  private.throttle_record(text, text), private.throttle_raise(integer, text)
  to authenticated, service_role;
grant execute on all functions in schema private to service_role;
