-- Sync argument readers: each mutation's arguments read from its JSON, refused (invalid) when
-- missing or of the wrong shape. Called by the apply functions (sync_apply*.sql), sync_touched
-- (sync_helpers.sql) and sync_push's batch of link.create (sync_push.sql).
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- A required boolean argument.
create or replace function private.sync_bool(p_args jsonb, p_key text) returns boolean
language plpgsql immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_args -> p_key) is distinct from 'boolean' then
    raise exception 'Missing or invalid argument: %', p_key using errcode = '22023';
  end if;
  return (p_args -> p_key)::boolean;
end
$$;
revoke all on function private.sync_bool(p_args jsonb, p_key text) from public, anon, authenticated, service_role;
grant execute on function private.sync_bool(p_args jsonb, p_key text) to authenticated, service_role;

-- An optional uuid argument: absent or null is null.
create or replace function private.sync_opt_uuid(p_args jsonb, p_key text) returns uuid
language plpgsql immutable
set search_path = ''
as $$
begin
  if coalesce(jsonb_typeof(p_args -> p_key), 'null') = 'null' then
    return null;
  end if;
  return private.sync_uuid(p_args, p_key);
end
$$;
revoke all on function private.sync_opt_uuid(p_args jsonb, p_key text) from public, anon, authenticated, service_role;
grant execute on function private.sync_opt_uuid(p_args jsonb, p_key text) to authenticated, service_role;

-- An optional reminder argument (minutes before the start): absent or null is null,
-- one of 0, 5, 15, 30, 60 or 1440 is itself, anything else raises (invalid).
create or replace function private.sync_reminder(p_args jsonb, p_key text) returns integer
language plpgsql immutable
set search_path = ''
as $$
begin
  case coalesce(jsonb_typeof(p_args -> p_key), 'null')
    when 'null' then return null;
    when 'number' then
      if (p_args ->> p_key) in ('0', '5', '15', '30', '60', '1440') then
        return (p_args ->> p_key)::integer;
      end if;
    else null;
  end case;
  raise exception 'Choose a reminder from the list.' using errcode = '22023', hint = 'invalid';
end
$$;
revoke all on function private.sync_reminder(p_args jsonb, p_key text) from public, anon, authenticated, service_role;
grant execute on function private.sync_reminder(p_args jsonb, p_key text) to authenticated, service_role;

-- The profile's theme: 'light', 'dark' or 'system'; anything else (null included) raises.
create or replace function private.sync_theme(p_args jsonb) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_args -> 'theme') = 'string' and (p_args ->> 'theme') in ('light', 'dark', 'system') then
    return p_args ->> 'theme';
  end if;
  raise exception 'Invalid argument: theme must be light, dark or system.' using errcode = '22023', hint = 'invalid';
end
$$;
revoke all on function private.sync_theme(p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_theme(p_args jsonb) to authenticated, service_role;

-- An optional text argument: absent or null is null, a string is itself, anything else raises.
create or replace function private.sync_text(p_args jsonb, p_key text) returns text
language plpgsql immutable
set search_path = ''
as $$
begin
  case coalesce(jsonb_typeof(p_args -> p_key), 'null')
    when 'null' then return null;
    when 'string' then return p_args ->> p_key;
    else raise exception 'Invalid argument: % must be text.', p_key using errcode = '22023';
  end case;
end
$$;
revoke all on function private.sync_text(p_args jsonb, p_key text) from public, anon, authenticated, service_role;
grant execute on function private.sync_text(p_args jsonb, p_key text) to authenticated, service_role;

-- A JSON array of strings as text[] (null or absent is empty).
create or replace function private.sync_text_array(p_value jsonb) returns text[]
language plpgsql immutable
set search_path = ''
as $$
begin
  if coalesce(jsonb_typeof(p_value), 'null') = 'null' then
    return '{}';
  end if;
  if jsonb_typeof(p_value) <> 'array'
     or exists (select 1 from jsonb_array_elements(p_value) x where jsonb_typeof(x) <> 'string') then
    raise exception 'Expected an array of strings.' using errcode = '22023';
  end if;
  return array(select jsonb_array_elements_text(p_value));
end
$$;
revoke all on function private.sync_text_array(p_value jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_text_array(p_value jsonb) to authenticated, service_role;

-- An optional timestamp argument (an ISO string): absent or null is null.
create or replace function private.sync_time(p_args jsonb, p_key text) returns timestamptz
language plpgsql stable
set search_path = ''
as $$
begin
  return private.sync_text(p_args, p_key)::timestamptz;
end
$$;
revoke all on function private.sync_time(p_args jsonb, p_key text) from public, anon, authenticated, service_role;
grant execute on function private.sync_time(p_args jsonb, p_key text) to authenticated, service_role;

-- The optional created_at argument (link.create, an imported bookmark's ADD_DATE): absent or null is
-- null; otherwise an ISO 8601 instant with its offset ('2020-01-31T12:00:00.000Z'), else refused.
create or replace function private.sync_created_at(p_args jsonb) returns timestamptz
language plpgsql stable
set search_path = ''
as $$
declare
  v_text text;
begin
  if coalesce(jsonb_typeof(p_args -> 'created_at'), 'null') = 'null' then
    return null;
  end if;
  v_text := p_args ->> 'created_at';
  if jsonb_typeof(p_args -> 'created_at') = 'string'
     and v_text ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$' then
    begin
      return v_text::timestamptz;
    exception when others then
      null; -- month 13 and the like: refused below
    end;
  end if;
  raise exception 'Invalid creation date.' using errcode = '22023', hint = 'invalid';
end
$$;
revoke all on function private.sync_created_at(p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_created_at(p_args jsonb) to authenticated, service_role;

-- A required uuid argument (a string in the canonical 8-4-4-4-12 form).
create or replace function private.sync_uuid(p_args jsonb, p_key text) returns uuid
language plpgsql immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_args -> p_key) is distinct from 'string'
     or (p_args ->> p_key) !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    raise exception 'Missing or invalid argument: %', p_key using errcode = '22023';
  end if;
  return (p_args ->> p_key)::uuid;
end
$$;
revoke all on function private.sync_uuid(p_args jsonb, p_key text) from public, anon, authenticated, service_role;
grant execute on function private.sync_uuid(p_args jsonb, p_key text) to authenticated, service_role;
