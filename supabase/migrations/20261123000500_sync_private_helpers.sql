-- the sync internals were callable over /rest/v1/rpc (sync_record_answer wrote
-- arbitrary JSON that was never purged; sync_insert_allowed was an existence oracle). They move
-- to schema private, which PostgREST does not expose; only sync_push and sync_pull stay in public.
-- sync_push and sync_pull run as the caller (SECURITY INVOKER, so RLS and the rule triggers
-- apply), so the internals they call stay executable by `authenticated`, but from private only.
-- The old public functions are dropped in ..._sync_drop_public_internals.sql.
--
-- This part: the argument readers, answers, the idempotency record and its retention. The
-- readers are strict: a value of the wrong JSON type (an object where text
-- is expected, a number where a uuid is) raises 22023 and the mutation is rejected `invalid`,
-- never stored as the JSON's text.

create or replace function private.sync_mutation_names() returns text[]
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

create or replace function private.sync_synced_tables() returns text[]
language sql immutable
set search_path = ''
as $$
  select array['user_profiles', 'link_directories', 'saved_links', 'directory_members', 'calendar_events',
               'voting_posts', 'user_votes']
$$;

-- ---------------------------------------------------------------------------
-- Argument readers. A missing required argument or a value of the wrong type raises 22023
-- without a hint, so the rejection shows the spec's wording for the action.
-- ---------------------------------------------------------------------------

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

-- An optional timestamp argument (an ISO string): absent or null is null.
create or replace function private.sync_time(p_args jsonb, p_key text) returns timestamptz
language plpgsql stable
set search_path = ''
as $$
begin
  return private.sync_text(p_args, p_key)::timestamptz;
end
$$;

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

-- Explains why a write reached no row, as the caller: a live row they can see but not change is
-- forbidden; a missing or invisible one is not_found. Deleting an already deleted row is a no-op.
create or replace function private.sync_missing(p_table text, p_id uuid, p_delete boolean default false) returns void
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
-- Directory owners' plans: a member's device shows the owner's badge and limits,
-- so directory rows carry `owner_tier`, and a directory is re-sent when its owner's
-- profile changes (its txid). Definer, because a member cannot read the owner's profile; it
-- answers only for directories the caller owns or is a member of.
-- ---------------------------------------------------------------------------

create or replace function private.sync_directory_owners(p_directories uuid[])
returns table (directory_id uuid, owner_tier text, owner_txid xid8)
language sql stable security definer
set search_path = ''
as $$
  select d.id, p.subscription_tier, p.txid
  from public.link_directories d
  join public.user_profiles p on p.id = d.owner_id
  where d.id = any (p_directories)
    and (d.owner_id = auth.uid()
         or exists (select 1 from public.directory_members m
                    where m.directory_id = d.id and m.deleted_at is null
                      and m.user_email = private.confirmed_email()))
$$;

-- ---------------------------------------------------------------------------
-- Answers.
-- ---------------------------------------------------------------------------

-- {table: [ids]} → {rows: {table: [live rows visible to the caller]}, deleted: {table: [the other ids]}}.
create or replace function private.sync_canonical(p_touched jsonb) returns jsonb
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
    where t.key = any (private.sync_synced_tables()) and jsonb_typeof(t.value) = 'array'
  loop
    if tbl = 'link_directories' then
      select coalesce(jsonb_agg(to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier) order by t.id), '[]')
      into found_rows
      from public.link_directories t
      left join private.sync_directory_owners(ids) o on o.directory_id = t.id
      where t.id = any (ids) and t.deleted_at is null;
    else
      execute format('select coalesce(jsonb_agg(to_jsonb(t) order by t.id), ''[]'') from public.%I t
                      where t.id = any ($1) and t.deleted_at is null', tbl)
        into found_rows using ids;
    end if;
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
create or replace function private.sync_touched(p_name text, p_args jsonb) returns jsonb
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
        and e.series_id = private.sync_uuid(p_args, case when p_name = 'series.replace' then 'old_series_id' else 'series_id' end);
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
create or replace function private.sync_fallback_message(p_name text) returns text
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
-- (the client keeps its queue and retries). Bad input of any kind is `invalid`: data exceptions
-- (22xxx: a cast, a value out of range, a malformed timestamp), a missing required value (23502),
-- a CHECK constraint (23514, lengths among them), a program limit (54xxx).
create or replace function private.sync_error_code(p_state text, p_hint text, p_table text) returns text
language sql immutable
set search_path = ''
as $$
  select case
    when p_hint in ('limit_reached', 'forbidden', 'invalid', 'not_found', 'poll_closed', 'already_voted', 'conflict')
      then p_hint
    when left(p_state, 2) in ('08', '40', '53', '57', '58', 'XX') or p_state in ('55P03', '55006') then null
    when left(p_state, 2) in ('22', '54') or p_state in ('23502', '23514') then 'invalid'
    when p_state = '23505' and p_table = 'user_votes' then 'already_voted'
    when p_state = '23505' then 'conflict'
    when p_state = '42501' or left(p_state, 2) = '28' then 'forbidden'
    when p_state in ('P0002', '23503') then 'not_found'
    else 'invalid'
  end
$$;

-- ---------------------------------------------------------------------------
-- The idempotency record (public.sync_mutations: no client role has any privilege on it) and
-- its retention: an answer is kept for 30 days (docs/sync-protocol.md "Retention").
-- ---------------------------------------------------------------------------

create index if not exists sync_mutations_age on public.sync_mutations (user_id, created_at);
create index if not exists sync_mutations_created on public.sync_mutations (created_at);

create or replace function private.sync_answer_retention() returns interval
language sql immutable
set search_path = ''
as $$
  select interval '30 days'
$$;

-- The recorded answer of the caller's mutation, or null.
create or replace function private.sync_recorded_answer(p_mutation_id uuid) returns jsonb
language sql stable security definer
set search_path = ''
as $$
  select m.result from public.sync_mutations m where m.user_id = auth.uid() and m.mutation_id = p_mutation_id
$$;

-- Records the caller's answer; false when one is already recorded (a concurrent replay won).
create or replace function private.sync_record_answer(p_mutation_id uuid, p_result jsonb) returns boolean
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

-- Deletes the caller's answers older than the retention (sync_push calls it: cheap, an index
-- range on (user_id, created_at)). Returns how many went.
create or replace function private.sync_purge_my_answers() returns integer
language sql volatile security definer
set search_path = ''
as $$
  with gone as (
    delete from public.sync_mutations m
    where m.user_id = auth.uid() and m.created_at < now() - private.sync_answer_retention()
    returning 1)
  select count(*)::integer from gone
$$;

-- Deletes every user's answers older than the retention, for a scheduled job (pg_cron on a
-- hosted install: `select private.sync_purge_answers()` daily). Service role only.
create or replace function private.sync_purge_answers() returns integer
language sql volatile security definer
set search_path = ''
as $$
  with gone as (
    delete from public.sync_mutations m where m.created_at < now() - private.sync_answer_retention()
    returning 1)
  select count(*)::integer from gone
$$;

revoke all on function private.sync_mutation_names(), private.sync_synced_tables(),
  private.sync_uuid(jsonb, text), private.sync_opt_uuid(jsonb, text), private.sync_bool(jsonb, text),
  private.sync_text(jsonb, text), private.sync_time(jsonb, text), private.sync_text_array(jsonb),
  private.sync_missing(text, uuid, boolean), private.sync_directory_owners(uuid[]),
  private.sync_canonical(jsonb), private.sync_touched(text, jsonb), private.sync_fallback_message(text),
  private.sync_error_code(text, text, text), private.sync_answer_retention(),
  private.sync_recorded_answer(uuid), private.sync_record_answer(uuid, jsonb), private.sync_purge_my_answers(),
  private.sync_purge_answers()
  from public, anon, authenticated;
grant execute on function private.sync_mutation_names(), private.sync_synced_tables(),
  private.sync_uuid(jsonb, text), private.sync_opt_uuid(jsonb, text), private.sync_bool(jsonb, text),
  private.sync_text(jsonb, text), private.sync_time(jsonb, text), private.sync_text_array(jsonb),
  private.sync_missing(text, uuid, boolean), private.sync_directory_owners(uuid[]),
  private.sync_canonical(jsonb), private.sync_touched(text, jsonb), private.sync_fallback_message(text),
  private.sync_error_code(text, text, text), private.sync_answer_retention(),
  private.sync_recorded_answer(uuid), private.sync_record_answer(uuid, jsonb), private.sync_purge_my_answers()
  to authenticated, service_role;
grant execute on function private.sync_purge_answers() to service_role;
