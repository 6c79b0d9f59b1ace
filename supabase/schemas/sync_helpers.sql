-- Sync internals: who owns the directories an answer names, rejections (their code, their
-- message, the rows a mutation touches), the idempotency record and its retention (the argument
-- readers are in sync_args.sql; the canonical answer, sync_canonical, is generated into
-- sync_registry.sql).
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

create or replace function private.sync_answer_retention() returns interval
language sql immutable
set search_path = ''
as $$
  select interval '30 days'
$$;
revoke all on function private.sync_answer_retention() from public, anon, authenticated, service_role;
grant execute on function private.sync_answer_retention() to authenticated, service_role;

-- The owner's plan of each directory of `p_directories` the caller owns or is a live member of.
-- PL/pgSQL: a push's answer and every pulled page ask it, and a security definer SQL function is
-- planned again on every call (0.7 ms a call under the load run).
create or replace function private.sync_directory_owners(p_directories uuid[])
returns table (directory_id uuid, owner_tier text, owner_txid xid8)
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_email text := private.confirmed_email();
begin
  return query
  select d.id, p.subscription_tier, p.txid
  from public.link_directories d
  join public.user_profiles p on p.id = d.owner_id
  where d.id = any (p_directories)
    and (d.owner_id = v_uid
         or exists (select 1 from public.directory_members m
                    where m.directory_id = d.id and m.deleted_at is null and m.user_email = v_email));
end
$$;
revoke all on function private.sync_directory_owners(p_directories uuid[]) from public, anon, authenticated, service_role;
grant execute on function private.sync_directory_owners(p_directories uuid[]) to authenticated, service_role;

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
revoke all on function private.sync_error_code(p_state text, p_hint text, p_table text) from public, anon, authenticated, service_role;
grant execute on function private.sync_error_code(p_state text, p_hint text, p_table text) to authenticated, service_role;

-- The message a rejection shows when the rule that refused it has no wording of its own (docs/product.md, Error messages).
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
    when p_name = 'poll.create_time' then 'Failed to create poll. Please try again.'
    when p_name = 'poll.answer' then 'Failed to save your answer. Please try again.'
    when p_name = 'poll.remove_slot' then 'Failed to remove the time slot. Please try again.'
    when p_name = 'poll.pick' then 'Failed to pick the time. Please try again.'
    when p_name = 'invitation.answer' then 'Failed to answer the invitation. Please try again.'
    else 'Invalid mutation.'
  end
$$;
revoke all on function private.sync_fallback_message(p_name text) from public, anon, authenticated, service_role;
grant execute on function private.sync_fallback_message(p_name text) to authenticated, service_role;

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
revoke all on function private.sync_missing(p_table text, p_id uuid, p_delete boolean) from public, anon, authenticated, service_role;
grant execute on function private.sync_missing(p_table text, p_id uuid, p_delete boolean) to authenticated, service_role;

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
revoke all on function private.sync_purge_answers() from public, anon, authenticated, service_role;
grant execute on function private.sync_purge_answers() to service_role;

-- Deletes the caller's answers older than the retention (sync_push calls it: cheap, an index
-- range on (user_id, created_at)). Returns how many went. PL/pgSQL: a security definer SQL
-- function is planned again on every call.
create or replace function private.sync_purge_my_answers() returns integer
language plpgsql volatile security definer
set search_path = ''
set enable_seqscan = off
as $$
declare
  gone integer;
begin
  delete from public.sync_mutations m
  where m.user_id = auth.uid() and m.created_at < now() - private.sync_answer_retention();
  get diagnostics gone = row_count;
  return gone;
end
$$;
revoke all on function private.sync_purge_my_answers() from public, anon, authenticated, service_role;
grant execute on function private.sync_purge_my_answers() to authenticated, service_role;

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
revoke all on function private.sync_record_answer(p_mutation_id uuid, p_result jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_record_answer(p_mutation_id uuid, p_result jsonb) to authenticated, service_role;

-- The recorded answer of the caller's mutation, or null (PL/pgSQL: its plan is kept for the
-- session). Never a sequential scan: one planned while the table was nearly empty was kept as it
-- grew (docs/scale.md, point 7); sync_any_recorded and sync_purge_my_answers do the same.
create or replace function private.sync_recorded_answer(p_mutation_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
set enable_seqscan = off
as $$
begin
  return (select m.result from public.sync_mutations m
          where m.user_id = auth.uid() and m.mutation_id = p_mutation_id);
end
$$;
revoke all on function private.sync_recorded_answer(p_mutation_id uuid) from public, anon, authenticated, service_role;
grant execute on function private.sync_recorded_answer(p_mutation_id uuid) to authenticated, service_role;

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
      if p_name = 'poll.answer' then
        -- The id sent, and the voter's row already there (another device's id): the answer names both.
        return jsonb_build_object(
          'slot_answers', jsonb_build_array(p_args -> 'id') || coalesce((
            select jsonb_agg(a.id) from public.slot_answers a
            where a.post_id = private.sync_uuid(p_args, 'post_id') and a.user_id = auth.uid()), '[]'),
          'voting_posts', jsonb_build_array(p_args -> 'post_id'));
      end if;
      if p_name = 'poll.remove_slot' then
        -- The answers the slot leaves, as far as the caller sees them.
        return jsonb_build_object(
          'voting_posts', jsonb_build_array(p_args -> 'id'),
          'slot_answers', coalesce((select jsonb_agg(a.id) from public.slot_answers a
                                    where a.post_id = private.sync_uuid(p_args, 'id')), '[]'));
      end if;
      if p_name = 'poll.pick' then
        -- The creator's event: the one sent, and the poll's earlier one (which moves).
        return jsonb_build_object(
          'voting_posts', jsonb_build_array(p_args -> 'id'),
          'calendar_events', jsonb_build_array(p_args -> 'event_id') || coalesce((
            select jsonb_build_array(v.picked_event_id) from public.voting_posts v
            where v.id = private.sync_uuid(p_args, 'id') and v.picked_event_id is not null), '[]'));
      end if;
      return jsonb_build_object('voting_posts', jsonb_build_array(p_args -> 'id'));
    when 'invitation' then
      -- The invitation, the event sent and the one an earlier accept made (a decline deletes it).
      return jsonb_build_object(
        'event_invitations', jsonb_build_array(p_args -> 'id'),
        'calendar_events', jsonb_build_array(p_args -> 'event_id') || coalesce((
          select jsonb_build_array(i.event_id) from public.event_invitations i
          where i.id = private.sync_uuid(p_args, 'id') and i.event_id is not null), '[]'));
    else return '{}';
  end case;
end
$$;
revoke all on function private.sync_touched(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_touched(p_name text, p_args jsonb) to authenticated, service_role;
