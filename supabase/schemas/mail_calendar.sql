-- Mail that follows a row: a new member's invitation, 'Event Created', 'Recurring Event Created' and a pick's time, queued in the row's savepoint.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

-- Mail that follows a calendar mutation (docs/product.md, Server calls; docs/product.md, Decisions): 'Event Created' for a
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
grant execute on function private.queue_event_mail(p_event uuid) to service_role;

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
grant execute on function private.queue_series_mail(p_series uuid) to service_role;

-- The mail of a time poll's pick (docs/product.md, Find a time): 'Time picked: {title}', or 'Time
-- changed: {title}' when picked again, to the creator and every person offered the time (not one who
-- declined), at most 100, each at their confirmed address under calendar_mail_to's cap (a mail over
-- it is dropped; the pick stands). Each row carries the event (calendar), which the sender attaches
-- as invite.ics: the poll's id as its UID, the pick's count as its SEQUENCE, so a calendar that has
-- the earlier time replaces it. Called by private.poll_pick (definer), for the caller's own poll.
create or replace function private.queue_pick_mail(p_post uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  post public.voting_posts;
  v_slot jsonb;
  t record;
  v_site text := coalesce(rtrim(private.setting('site_url'), '/'), '');
  v_url text;
  v_calendar jsonb;
  v_subject text;
  v_user uuid;
  v_to text;
  v_when text;
begin
  select * into post from public.voting_posts v
  where v.id = p_post and v.created_by_id = auth.uid() and v.picked_slot_id is not null;
  if not found then
    return;
  end if;
  select o into v_slot from jsonb_array_elements(post.options) o where o ->> 'id' = post.picked_slot_id;
  t := private.time_slot_times(v_slot, post.time_zone);
  v_url := v_site || '/Voting';
  v_subject := case when post.pick_count > 1 then 'Time changed: ' else 'Time picked: ' end || post.title;
  v_calendar := jsonb_build_object(
    'uid', p_post::text || '@linkboard', 'sequence', post.pick_count, 'title', post.title,
    'description', post.description,
    'starts_at', to_char(t.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'ends_at', to_char(t.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'all_day', t.all_day, 'time_zone', post.time_zone, 'url', v_url, 'method', 'PUBLISH');
  for v_user in
    select r.user_id from (
      select post.created_by_id as user_id, 0 as n, now() as at
      union all
      select i.user_id, 1, i.created_at from public.event_invitations i
      where i.post_id = p_post and i.deleted_at is null and i.status <> 'declined' and i.user_id <> post.created_by_id
    ) r
    order by r.n, r.at, r.user_id
    limit 100
  loop
    v_to := private.calendar_mail_to(v_user);
    continue when v_to is null;
    v_when := case when t.all_day then coalesce(v_slot ->> 'day', '') || ' (all day)'
                   else private.calendar_mail_time(v_user, t.starts_at, true) end;
    insert into public.outgoing_mail (to_address, subject, body, sender_id, calendar)
    values (
      v_to,
      v_subject,
      '"' || post.title || '" is ' || case when post.pick_count > 1 then 'now' else 'set for' end || ' ' || v_when
        || '.' || E'\n'
        || E'\n'
        || case when v_user = post.created_by_id then 'It is in your calendar.'
                else 'Accept or decline the invitation in Linkboard.' end || E'\n'
        || E'\n'
        || 'Open the poll: ' || v_url || E'\n'
        || E'\n'
        || 'The event is attached (invite.ics) to add to any calendar.',
      post.created_by_id,
      v_calendar);
  end loop;
end
$$;
revoke all on function private.queue_pick_mail(p_post uuid) from public, anon, authenticated, service_role;
grant execute on function private.queue_pick_mail(p_post uuid) to service_role;

-- The mail that follows a new row is queued by these triggers, after the insert and in its
-- savepoint: a refused mutation takes its mail back, and a replay (answered without applying)
-- inserts nothing and queues nothing. Triggers rather than calls from the apply functions, which
-- run as the caller: a trigger needs no execute right of the caller, so no client role can run
-- the queue functions themselves and queue mail outside a mutation. Definer, so the queue
-- functions run as their owner; each still queues only for the caller's own rows (auth.uid()).

-- The invitation of a new member ('invitation', on directory_members), or 'Event Created' of a new
-- single event ('event', on calendar_events; not a task, not an occurrence of a series).
create or replace function private.queue_row_mail() returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  case tg_argv[0]
    when 'invitation' then perform private.queue_invitation_mail(new.id);
    when 'event' then perform private.queue_event_mail(new.id);
  end case;
  return null;
end
$$;
revoke all on function private.queue_row_mail() from public, anon, authenticated, service_role;
grant execute on function private.queue_row_mail() to service_role;

-- 'Recurring Event Created' once per series a statement inserted (series.create and
-- series.replace insert a whole series in one statement).
create or replace function private.calendar_series_mail() returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_series uuid;
begin
  for v_series in select distinct a.series_id from added a where a.series_id is not null and not a.is_task loop
    perform private.queue_series_mail(v_series);
  end loop;
  return null;
end
$$;
revoke all on function private.calendar_series_mail() from public, anon, authenticated, service_role;
grant execute on function private.calendar_series_mail() to service_role;

create or replace trigger t40_mail after insert on public.directory_members
  for each row execute function private.queue_row_mail('invitation');

create or replace trigger t40_mail after insert on public.calendar_events
  for each row when (new.series_id is null and not new.is_task)
  execute function private.queue_row_mail('event');

create or replace trigger t41_series_mail after insert on public.calendar_events
  referencing new table as added
  for each statement execute function private.calendar_series_mail();
