-- Throttles: attempts per bucket and subject, kept in PostgreSQL.
--
-- Only security definer functions call them (the RPCs and the mail queue), so no client role
-- executes any: a client that could record attempts could lock visitors out of a password
-- directory or use up another user's allowance.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

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
revoke all on function private.client_address() from public, anon, authenticated, service_role;
grant execute on function private.client_address() to service_role;

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
revoke all on function private.throttle(p_bucket text, p_subject text, p_max integer, p_window interval, p_message text) from public, anon, authenticated, service_role;
grant execute on function private.throttle(p_bucket text, p_subject text, p_max integer, p_window interval, p_message text) to service_role;

-- Checks every limit, in order, and records an attempt against each once all of them allow it.
-- p_limits: [{bucket, subject, max, seconds}].
create or replace function private.throttle_all(p_limits jsonb, p_message text) returns void
language plpgsql volatile
set search_path = ''
as $$
declare
  lim jsonb;
begin
  for lim in select value from jsonb_array_elements(p_limits) loop
    perform private.throttle_lock(lim ->> 'bucket', lim ->> 'subject');
    perform private.throttle_check(lim ->> 'bucket', lim ->> 'subject', (lim ->> 'max')::integer,
                                   make_interval(secs => (lim ->> 'seconds')::integer), p_message);
  end loop;
  for lim in select value from jsonb_array_elements(p_limits) loop
    perform private.throttle_record(lim ->> 'bucket', lim ->> 'subject');
  end loop;
end
$$;
revoke all on function private.throttle_all(p_limits jsonb, p_message text) from public, anon, authenticated, service_role;
grant execute on function private.throttle_all(p_limits jsonb, p_message text) to service_role;

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
revoke all on function private.throttle_check(p_bucket text, p_subject text, p_max integer, p_window interval, p_message text) from public, anon, authenticated, service_role;
grant execute on function private.throttle_check(p_bucket text, p_subject text, p_max integer, p_window interval, p_message text) to service_role;

-- Takes the transaction's lock on one throttle key, so concurrent attempts are counted one after
-- the other (each sees the attempts the ones before it recorded).
create or replace function private.throttle_lock(p_bucket text, p_subject text) returns void
language sql volatile
set search_path = ''
as $$
  select pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('throttle'),
                                          pg_catalog.hashtext(p_bucket || ':' || coalesce(p_subject, '')))
$$;
revoke all on function private.throttle_lock(p_bucket text, p_subject text) from public, anon, authenticated, service_role;
grant execute on function private.throttle_lock(p_bucket text, p_subject text) to service_role;

create or replace function private.throttle_purge() returns integer
language sql volatile security definer
set search_path = ''
as $$
  with gone as (delete from private.throttle_attempts where attempted_at < clock_timestamp() - interval '1 day'
                returning 1)
  select count(*)::integer from gone
$$;
revoke all on function private.throttle_purge() from public, anon, authenticated, service_role;
grant execute on function private.throttle_purge() to service_role;

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
revoke all on function private.throttle_raise(p_wait integer, p_message text) from public, anon, authenticated, service_role;
grant execute on function private.throttle_raise(p_wait integer, p_message text) to service_role;

create or replace function private.throttle_record(p_bucket text, p_subject text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  insert into private.throttle_attempts (bucket, subject) values (p_bucket, left(coalesce(p_subject, ''), 320));
  if random() < 0.01 then
    perform private.throttle_purge();
  end if;
end
$$;
revoke all on function private.throttle_record(p_bucket text, p_subject text) from public, anon, authenticated, service_role;
grant execute on function private.throttle_record(p_bucket text, p_subject text) to service_role;

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
revoke all on function private.throttle_wait(p_bucket text, p_subject text, p_max integer, p_window interval) from public, anon, authenticated, service_role;
grant execute on function private.throttle_wait(p_bucket text, p_subject text, p_max integer, p_window interval) to service_role;
