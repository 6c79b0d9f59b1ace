-- Written by `npm run db:diff` from supabase/schemas: function private.sync_apply_event, function private.sync_apply_series, function private.calendar_mail_time, function private.calendar_mail_to, function private.queue_event_mail, function private.queue_series_mail.
-- Review it, then commit it with the schema change.

-- supabase/schemas/mail.sql
-- Mail that follows a calendar mutation (docs/product.md; docs/architecture.md): 'Event Created' for a
-- non-task event, 'Recurring Event Created' once per series (not per occurrence); tasks get none.
-- Both go to the owner's own confirmed address (an unconfirmed account gets none) and are queued
-- in the savepoint of the mutation that creates the event, so a refused mutation takes its mail
-- back and a replay (answered from sync_mutations without applying) queues nothing.
--
-- The address a calendar mail to p_owner goes to, with this mail counted against the cap; null
-- (and nothing counted) when the account is unconfirmed or over the cap. The cap is generous, 100
-- calendar mails an hour per user, and reaching it only drops the mail: the event or series is
-- still saved. Unlike the invitation mail, whose text reaches someone else's inbox and whose
-- invite is refused over its cap, this is a courtesy notice to the owner, and an event must never
-- fail because of it.
create or replace function private.calendar_mail_to(p_owner uuid) returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_to text := private.confirmed_email_of(p_owner);
begin
  if v_to is null then
    return null;
  end if;
  if private.throttle_wait('event_mail', p_owner::text, 100, interval '1 hour') > 0 then
    return null;
  end if;
  perform private.throttle_record('event_mail', p_owner::text);
  return v_to;
end
$$;
revoke all on function private.calendar_mail_to(p_owner uuid) from public, anon, authenticated, service_role;
grant execute on function private.calendar_mail_to(p_owner uuid) to service_role;

-- A moment as a calendar mail writes it, in the owner's profile time zone (UTC without one):
-- 'Mon 23 Nov 2026, 09:00 (Europe/Berlin)', or only the date ('Mon 23 Nov 2026').
create or replace function private.calendar_mail_time(p_owner uuid, p_at timestamptz, p_with_time boolean)
returns text
language sql stable security definer
set search_path = ''
as $$
  select case when p_with_time then to_char(p_at at time zone z.tz, 'Dy FMDD Mon YYYY, HH24:MI') || ' (' || z.tz || ')'
              else to_char(p_at at time zone z.tz, 'Dy FMDD Mon YYYY') end
  from (select coalesce((select p.time_zone from public.user_profiles p where p.id = p_owner), 'UTC') as tz) z
$$;
revoke all on function private.calendar_mail_time(p_owner uuid, p_at timestamp with time zone, p_with_time boolean) from public, anon, authenticated, service_role;
grant execute on function private.calendar_mail_time(p_owner uuid, p_at timestamp with time zone, p_with_time boolean) to service_role;

-- Queues the 'Event Created' mail of a non-task event the caller has just created (event.create).
-- Definer, because outgoing_mail and auth.users are closed to client roles.
create or replace function private.queue_event_mail(p_event uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_title text;
  v_start timestamptz;
  v_to text;
begin
  select e.owner_id, e.title, e.starts_at into v_owner, v_title, v_start
  from public.calendar_events e
  where e.id = p_event and e.owner_id = auth.uid() and not e.is_task and e.deleted_at is null;
  if not found then
    return;
  end if;
  v_to := private.calendar_mail_to(v_owner);
  if v_to is null then
    return;
  end if;
  insert into public.outgoing_mail (to_address, subject, body, sender_id)
  values (
    v_to,
    'Event Created',
    'Your event "' || v_title || '" has been created on Linkboard.' || E'\n'
      || E'\n'
      || 'Starts: ' || coalesce(private.calendar_mail_time(v_owner, v_start, true), 'no start time') || E'\n'
      || E'\n'
      || 'See it in your calendar: ' || coalesce(rtrim(private.setting('site_url'), '/'), '') || '/Calendar',
    v_owner);
end
$$;
revoke all on function private.queue_event_mail(p_event uuid) from public, anon, authenticated, service_role;
grant execute on function private.queue_event_mail(p_event uuid) to authenticated, service_role;

-- Queues the 'Recurring Event Created' mail of a series the caller has just created (series.create,
-- series.replace): one mail for the series, naming its first occurrence, rule, size and end date.
-- A series of tasks gets none. Definer, as queue_event_mail.
create or replace function private.queue_series_mail(p_series uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_owner uuid;
  v_title text;
  v_start timestamptz;
  v_rule text;
  v_until timestamptz;
  v_count integer;
  v_to text;
begin
  select e.owner_id, e.title, e.starts_at, e.recurrence_rule, e.recurrence_end_date,
         count(*) over ()::integer
  into v_owner, v_title, v_start, v_rule, v_until, v_count
  from public.calendar_events e
  where e.series_id = p_series and e.owner_id = auth.uid() and not e.is_task and e.deleted_at is null
  order by e.starts_at nulls last, e.id
  limit 1;
  if not found then
    return;
  end if;
  v_to := private.calendar_mail_to(v_owner);
  if v_to is null then
    return;
  end if;
  insert into public.outgoing_mail (to_address, subject, body, sender_id)
  values (
    v_to,
    'Recurring Event Created',
    'Your recurring event "' || v_title || '" has been created on Linkboard.' || E'\n'
      || E'\n'
      || 'First: ' || coalesce(private.calendar_mail_time(v_owner, v_start, true), 'no start time') || E'\n'
      || 'Repeats: ' || v_rule || ', ' || v_count || case when v_count = 1 then ' occurrence' else ' occurrences' end
      || ', until ' || coalesce(private.calendar_mail_time(v_owner, v_until, false), 'no end date') || E'\n'
      || E'\n'
      || 'See it in your calendar: ' || coalesce(rtrim(private.setting('site_url'), '/'), '') || '/Calendar',
    v_owner);
end
$$;
revoke all on function private.queue_series_mail(p_series uuid) from public, anon, authenticated, service_role;
grant execute on function private.queue_series_mail(p_series uuid) to authenticated, service_role;

-- supabase/schemas/sync_apply.sql

create or replace function private.sync_apply_event(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'event.create' then
      insert into public.calendar_events (id, title, description, starts_at, ends_at, is_task, priority, owner_id)
      values (v_id, private.sync_text(p_args, 'title'), private.sync_text(p_args, 'description'),
              private.sync_time(p_args, 'starts_at'), private.sync_time(p_args, 'ends_at'),
              case when p_args ? 'is_task' then private.sync_bool(p_args, 'is_task') else false end,
              private.sync_text(p_args, 'priority'), auth.uid());
      -- Same savepoint as the insert: a refusal takes the mail back, a replay never gets here.
      perform private.queue_event_mail(v_id);
      return;
    when 'event.update', 'occurrence.detach' then
      update public.calendar_events e set
        title = case when p_args ? 'title' then private.sync_text(p_args, 'title') else e.title end,
        description = case when p_args ? 'description' then private.sync_text(p_args, 'description')
                           else e.description end,
        starts_at = case when p_args ? 'starts_at' then private.sync_time(p_args, 'starts_at') else e.starts_at end,
        ends_at = case when p_args ? 'ends_at' then private.sync_time(p_args, 'ends_at') else e.ends_at end,
        priority = case when p_args ? 'priority' and p_name = 'event.update' then private.sync_text(p_args, 'priority')
                        else e.priority end,
        series_id = case when p_name = 'occurrence.detach' then null else e.series_id end,
        recurrence_rule = case when p_name = 'occurrence.detach' then 'none' else e.recurrence_rule end,
        recurrence_end_date = case when p_name = 'occurrence.detach' then null else e.recurrence_end_date end
      where e.id = v_id and e.deleted_at is null;
    when 'task.set_completed' then
      update public.calendar_events e set is_completed = private.sync_bool(p_args, 'value')
      where e.id = v_id and e.deleted_at is null;
    when 'event.delete' then
      update public.calendar_events e set deleted_at = now() where e.id = v_id and e.deleted_at is null;
  end case;
  if not found then
    perform private.sync_missing('calendar_events', v_id, p_name = 'event.delete');
  end if;
end
$$;
revoke all on function private.sync_apply_event(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_event(p_name text, p_args jsonb) to authenticated, service_role;

create or replace function private.sync_apply_series(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_old uuid;
begin
  case p_name
    when 'series.create' then
      perform private.sync_insert_series(p_args);
      perform private.queue_series_mail(private.sync_uuid(p_args, 'series_id'));
    when 'series.replace' then
      -- One mutation, one savepoint: the old set goes and the new set comes, or neither.
      v_old := private.sync_uuid(p_args, 'old_series_id');
      if not exists (select 1 from public.calendar_events e where e.series_id = v_old) then
        raise exception 'Not found.' using errcode = 'P0002';
      end if;
      update public.calendar_events e set deleted_at = now() where e.series_id = v_old and e.deleted_at is null;
      perform private.sync_insert_series(p_args);
      -- The replacement is a new series: it gets its own mail, in the same savepoint.
      perform private.queue_series_mail(private.sync_uuid(p_args, 'series_id'));
    when 'series.delete' then
      v_old := private.sync_uuid(p_args, 'series_id');
      update public.calendar_events e set deleted_at = now() where e.series_id = v_old and e.deleted_at is null;
      if not found and not exists (select 1 from public.calendar_events e where e.series_id = v_old) then
        raise exception 'Not found.' using errcode = 'P0002';
      end if;
  end case;
end
$$;
revoke all on function private.sync_apply_series(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_series(p_name text, p_args jsonb) to authenticated, service_role;
