-- Sync push (docs/sync-protocol.md, design section 3): the idempotency record, the helpers that
-- turn what a mutation touched into canonical rows, error mapping, and sync_push itself.
-- The mutations are applied by the per-family functions in ..._sync_apply.sql; the pull is in
-- ..._sync_pull.sql. Everything that writes synced rows runs as the caller (SECURITY INVOKER),
-- so RLS and the rule triggers apply; only the idempotency record is written by a definer.

create table public.sync_mutations (
  user_id uuid not null,
  mutation_id uuid not null,
  result jsonb not null,
  created_at timestamptz not null default now(),
  primary key (user_id, mutation_id)
);
alter table public.sync_mutations enable row level security;
revoke all on public.sync_mutations from public, anon, authenticated;
grant all on public.sync_mutations to service_role;

-- The recorded answer of the caller's mutation, or null.
create or replace function public.sync_recorded_answer(p_mutation_id uuid) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select m.result from public.sync_mutations m where m.user_id = auth.uid() and m.mutation_id = p_mutation_id
$$;

-- Records the caller's answer; false when one is already recorded (a concurrent replay won).
create or replace function public.sync_record_answer(p_mutation_id uuid, p_result jsonb) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null or p_mutation_id is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  insert into public.sync_mutations (user_id, mutation_id, result) values (uid, p_mutation_id, p_result)
  on conflict do nothing;
  return found;
end
$$;

-- ---------------------------------------------------------------------------
-- Small helpers for the apply functions.
-- ---------------------------------------------------------------------------

create or replace function public.sync_mutation_names() returns text[]
language sql immutable
set search_path = ''
as $$
  select array['profile.update', 'directory.create', 'directory.update', 'directory.delete',
               'link.create', 'link.update', 'link.delete', 'link.set_favorite',
               'member.invite', 'member.set_role', 'member.remove',
               'event.create', 'event.update', 'event.delete', 'task.set_completed',
               'series.create', 'series.replace', 'series.delete', 'occurrence.detach',
               'poll.create', 'poll.vote']
$$;

create or replace function public.sync_synced_tables() returns text[]
language sql immutable
set search_path = ''
as $$
  select array['user_profiles', 'link_directories', 'saved_links', 'directory_members', 'calendar_events',
               'voting_posts', 'user_votes']
$$;

-- A required uuid argument.
create or replace function public.sync_uuid(p_args jsonb, p_key text) returns uuid
language plpgsql immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_args -> p_key) is distinct from 'string' then
    raise exception 'Missing argument: %', p_key using errcode = '22023';
  end if;
  return (p_args ->> p_key)::uuid;
end
$$;

-- A required boolean argument.
create or replace function public.sync_bool(p_args jsonb, p_key text) returns boolean
language plpgsql immutable
set search_path = ''
as $$
begin
  if jsonb_typeof(p_args -> p_key) is distinct from 'boolean' then
    raise exception 'Missing argument: %', p_key using errcode = '22023';
  end if;
  return (p_args -> p_key)::boolean;
end
$$;

-- A JSON array of strings as text[] (null or absent is empty).
create or replace function public.sync_text_array(p_value jsonb) returns text[]
language plpgsql immutable
set search_path = ''
as $$
begin
  if p_value is null or jsonb_typeof(p_value) = 'null' then
    return '{}';
  end if;
  if jsonb_typeof(p_value) <> 'array' then
    raise exception 'Expected an array.' using errcode = '22023';
  end if;
  return array(select jsonb_array_elements_text(p_value));
end
$$;

-- Explains why a write reached no row, as the caller: a live row they can see but not change is
-- forbidden; a missing or invisible one is not_found. Deleting an already deleted row is a no-op.
create or replace function public.sync_missing(p_table text, p_id uuid, p_delete boolean default false) returns void
language plpgsql
set search_path = ''
as $$
declare
  state text;
begin
  execute format('select case when t.deleted_at is null then ''live'' else ''deleted'' end from public.%I t where t.id = $1',
                 p_table) into state using p_id;
  if state = 'live' then
    raise exception 'You do not have permission to change this.' using errcode = '42501';
  elsif state = 'deleted' and p_delete then
    return;
  end if;
  raise exception 'Not found.' using errcode = 'P0002';
end
$$;

-- ---------------------------------------------------------------------------
-- Answers.
-- ---------------------------------------------------------------------------

-- {table: [ids]} → {rows: {table: [live rows visible to the caller]}, deleted: {table: [the other ids]}}.
create or replace function public.sync_canonical(p_touched jsonb) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  tbl text;
  ids uuid[];
  found_rows jsonb;
  rows_out jsonb := '{}';
  deleted_out jsonb := '{}';
begin
  for tbl, ids in
    select t.key, array(select distinct (x #>> '{}')::uuid from jsonb_array_elements(t.value) x
                        where jsonb_typeof(x) = 'string'
                          and x #>> '{}' ~* '^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$')
    from jsonb_each(coalesce(p_touched, '{}')) t
    where t.key = any (public.sync_synced_tables()) and jsonb_typeof(t.value) = 'array'
  loop
    execute format('select coalesce(jsonb_agg(to_jsonb(t) order by t.id), ''[]'') from public.%I t
                    where t.id = any ($1) and t.deleted_at is null', tbl)
      into found_rows using ids;
    rows_out := rows_out || jsonb_build_object(tbl, found_rows);
    deleted_out := deleted_out || jsonb_build_object(tbl, coalesce((
      select jsonb_agg(gone.id order by gone.id)
      from (select unnest(ids) as id except select (r ->> 'id')::uuid from jsonb_array_elements(found_rows) r) gone
    ), '[]'));
  end loop;
  return jsonb_build_object('rows', rows_out, 'deleted', deleted_out);
end
$$;

-- The rows a mutation touches, worked out before it runs (so a rejection can restore them).
create or replace function public.sync_touched(p_name text, p_args jsonb) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  occurrence_ids jsonb := coalesce((
    select jsonb_agg(o -> 'id') from jsonb_array_elements(
      case when jsonb_typeof(p_args -> 'occurrences') = 'array' then p_args -> 'occurrences' else '[]' end) o
    where jsonb_typeof(o -> 'id') = 'string'), '[]');
  series_ids jsonb;
begin
  case split_part(p_name, '.', 1)
    when 'profile' then return jsonb_build_object('user_profiles', jsonb_build_array(auth.uid()));
    when 'directory' then return jsonb_build_object('link_directories', jsonb_build_array(p_args -> 'id'));
    when 'link' then return jsonb_build_object('saved_links', jsonb_build_array(p_args -> 'id'));
    when 'member' then return jsonb_build_object('directory_members', jsonb_build_array(p_args -> 'id'));
    when 'event', 'task', 'occurrence' then return jsonb_build_object('calendar_events', jsonb_build_array(p_args -> 'id'));
    when 'series' then
      select coalesce(jsonb_agg(e.id), '[]') into series_ids from public.calendar_events e
      where e.deleted_at is null
        and e.series_id = public.sync_uuid(p_args, case when p_name = 'series.replace' then 'old_series_id' else 'series_id' end);
      if p_name = 'series.create' then series_ids := '[]'; end if;
      return jsonb_build_object('calendar_events', series_ids || occurrence_ids);
    when 'poll' then
      if p_name = 'poll.vote' then
        return jsonb_build_object('user_votes', jsonb_build_array(p_args -> 'id'),
                                  'voting_posts', jsonb_build_array(p_args -> 'post_id'));
      end if;
      return jsonb_build_object('voting_posts', jsonb_build_array(p_args -> 'id'));
    else return '{}';
  end case;
end
$$;

-- The message a rejection shows when the rule that refused it has no wording of its own (spec section 8).
create or replace function public.sync_fallback_message(p_name text) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when p_name = 'profile.update' then 'Failed to save profile. Your username might be taken.'
    when p_name = 'directory.create' then 'Failed to create directory. Please try again.'
    when p_name like 'directory.%' then 'Failed to update directory. Please try again.'
    when p_name = 'link.delete' then 'Failed to delete link. Please try again.'
    when p_name like 'link.%' then 'Failed to save link. Please try again.'
    when p_name = 'member.remove' then 'Failed to remove member. Please try again.'
    when p_name like 'member.%' then 'Failed to update role. Please try again.'
    when p_name = 'task.set_completed' then 'Failed to update task. Please try again.'
    when p_name = 'event.delete' then 'Failed to delete event. Please try again.'
    when p_name = 'series.delete' then 'Failed to delete event(s). Please try again.'
    when p_name like 'event.%' or p_name like 'series.%' or p_name like 'occurrence.%'
      then 'Failed to save event/task. Please try again.'
    when p_name = 'poll.create' then 'Failed to create poll. Please try again.'
    when p_name = 'poll.vote' then 'Failed to record your vote. Please try again.'
    else 'Invalid mutation.'
  end
$$;

-- Maps an error to a rejection code; null for a transient error that must fail the whole push
-- (the client keeps its queue and retries).
create or replace function public.sync_error_code(p_state text, p_hint text, p_table text) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when p_hint in ('limit_reached', 'forbidden', 'invalid', 'not_found', 'poll_closed', 'already_voted', 'conflict')
      then p_hint
    when left(p_state, 2) in ('08', '40', '53', '57', '58', 'XX') or p_state in ('55P03', '55006') then null
    when p_state = '23505' and p_table = 'user_votes' then 'already_voted'
    when p_state = '23505' then 'conflict'
    when p_state = '42501' or left(p_state, 2) = '28' then 'forbidden'
    when p_state in ('P0002', '23503') then 'not_found'
    else 'invalid'
  end
$$;

revoke all on function public.sync_recorded_answer(uuid), public.sync_record_answer(uuid, jsonb),
  public.sync_mutation_names(), public.sync_synced_tables(), public.sync_uuid(jsonb, text),
  public.sync_bool(jsonb, text), public.sync_text_array(jsonb), public.sync_missing(text, uuid, boolean),
  public.sync_canonical(jsonb), public.sync_touched(text, jsonb), public.sync_fallback_message(text),
  public.sync_error_code(text, text, text)
  from public, anon;
grant execute on function public.sync_recorded_answer(uuid), public.sync_record_answer(uuid, jsonb),
  public.sync_mutation_names(), public.sync_synced_tables(), public.sync_uuid(jsonb, text),
  public.sync_bool(jsonb, text), public.sync_text_array(jsonb), public.sync_missing(text, uuid, boolean),
  public.sync_canonical(jsonb), public.sync_touched(text, jsonb), public.sync_fallback_message(text),
  public.sync_error_code(text, text, text)
  to authenticated, service_role;
