-- Mail: the queue (public.outgoing_mail), who may be mailed, the invitation mail, contact messages.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

create or replace function private.may_mail(p_sender uuid, p_to text) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
      select 1 from auth.users u
      where u.id = p_sender and u.email_confirmed_at is not null and lower(u.email) = lower(p_to))
    or exists (
      select 1
      from public.directory_members m
      join public.link_directories d on d.id = m.directory_id
      where d.owner_id = p_sender and d.deleted_at is null
        and m.deleted_at is null and m.user_email = lower(p_to))
$$;
revoke all on function private.may_mail(p_sender uuid, p_to text) from public, anon, authenticated, service_role;
grant execute on function private.may_mail(p_sender uuid, p_to text) to service_role;

-- Queues the mail of a member the caller has just invited (docs/product.md, Server calls; the same text the client
-- composed before). Definer, because outgoing_mail and auth.users are closed to client roles; it
-- queues only for a live member of a live directory the caller owns.
create or replace function private.queue_invitation_mail(p_member uuid) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_to text;
  v_role text;
  v_directory uuid;
  v_name text;
  v_username text;
  v_inviter text;
  v_url text;
begin
  select m.user_email, m.role, d.id, d.name, p.username, coalesce(u.email, p.username)
  into v_to, v_role, v_directory, v_name, v_username, v_inviter
  from public.directory_members m
  join public.link_directories d on d.id = m.directory_id
  join public.user_profiles p on p.id = d.owner_id
  left join auth.users u on u.id = d.owner_id
  where m.id = p_member and m.deleted_at is null and d.deleted_at is null and d.owner_id = auth.uid();
  if not found then
    return;
  end if;
  -- The directory's name is the inviter's text in someone else's inbox: at most 50 invitation
  -- mails an hour per inviter, beyond which the invite itself is refused (nothing half-done).
  if private.throttle_wait('invite_mail', auth.uid()::text, 50, interval '1 hour') > 0 then
    raise exception 'You have sent too many invitations. Please try again in an hour.' using hint = 'limit_reached';
  end if;
  perform private.throttle_record('invite_mail', auth.uid()::text);
  v_url := coalesce(rtrim(private.setting('site_url'), '/'), '') || '/Links/' || v_username || '/dir/' || v_directory;
  insert into public.outgoing_mail (to_address, subject, body, sender_id)
  values (
    v_to,
    'You have been invited to ' || v_name || ' on Linkboard',
    v_inviter || ' invited you to the directory "' || v_name || '" on Linkboard as '
      || case when v_role = 'editor' then 'an Editor' else 'a Viewer' end || '.' || E'\n'
      || E'\n'
      || 'Open it here: ' || v_url || E'\n'
      || E'\n'
      || 'Sign in, or create an account, with this email address (' || v_to || ') to see it.',
    auth.uid());
end
$$;
revoke all on function private.queue_invitation_mail(p_member uuid) from public, anon, authenticated, service_role;
grant execute on function private.queue_invitation_mail(p_member uuid) to service_role;

-- A setting's value, or null (definer: no client role can read private.settings).
create or replace function private.setting(p_key text) returns text
language sql stable security definer
set search_path = ''
as $$
  select s.value from private.settings s where s.key = p_key
$$;
revoke all on function private.setting(p_key text) from public, anon, authenticated, service_role;
grant execute on function private.setting(p_key text) to service_role;

create or replace function public.enqueue_mail(p_to text, p_subject text, p_body text, p_sender uuid,
                                    p_client text default null, p_support boolean default false) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_to text := btrim(coalesce(p_to, ''));
  v_id uuid;
begin
  if v_to !~ '^[^@[:space:]]+@[^@[:space:]]+$' or char_length(v_to) > 320 then
    raise exception 'A valid recipient is required.' using errcode = '22023', hint = 'invalid';
  end if;
  if char_length(coalesce(p_subject, '')) > 300 or char_length(coalesce(p_body, '')) > 20000 then
    raise exception 'The mail is too long.' using errcode = '22001', hint = 'invalid';
  end if;
  if p_sender is not null then
    if not coalesce(p_support, false) and not private.may_mail(p_sender, v_to) then
      raise sqlstate 'PGRST' using
        message = json_build_object(
          'code', 'forbidden',
          'message', 'You can send mail only to people you invited, to yourself, or to support.',
          'details', null, 'hint', null)::text,
        detail = json_build_object('status', 403, 'headers', json_build_object())::text;
    end if;
    perform private.throttle_all(jsonb_build_array(
      jsonb_build_object('bucket', 'mail', 'subject', p_sender, 'max', 50, 'seconds', 3600)),
      'Too many emails sent. Please try again later.');
  elsif p_client is not null then
    perform private.throttle_all(jsonb_build_array(
      jsonb_build_object('bucket', 'mail_anonymous', 'subject', left(p_client, 100), 'max', 10, 'seconds', 3600),
      jsonb_build_object('bucket', 'mail_anonymous_all', 'subject', '', 'max', 200, 'seconds', 3600)),
      'Too many emails sent. Please try again later.');
  end if;
  insert into public.outgoing_mail (to_address, subject, body, sender_id)
  values (v_to, coalesce(p_subject, ''), coalesce(p_body, ''), p_sender)
  returning id into v_id;
  return v_id;
end
$$;
revoke all on function public.enqueue_mail(p_to text, p_subject text, p_body text, p_sender uuid, p_client text, p_support boolean) from public, anon, authenticated, service_role;
grant execute on function public.enqueue_mail(p_to text, p_subject text, p_body text, p_sender uuid, p_client text, p_support boolean) to service_role;

create or replace function public.submit_contact_message(p_name text, p_email text, p_message text) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := lower(btrim(coalesce(p_email, '')));
  -- The message is cut to 4000 characters (the form does too).
  v_message text := left(btrim(coalesce(p_message, '')), 4000);
  v_client text := private.client_address();
  v_id uuid;
begin
  if v_name = '' or v_email = '' or v_message = '' then
    raise exception 'Name, email and message are required.' using errcode = '22023', hint = 'invalid';
  end if;
  if char_length(v_name) > 200 then
    raise exception 'The name can be at most 200 characters.' using errcode = '22001', hint = 'invalid';
  end if;
  if v_email !~ '^[^@[:space:]]+@[^@[:space:]]+$' or char_length(v_email) > 320 then
    raise exception 'Please enter a valid email address.' using errcode = '22023', hint = 'invalid';
  end if;
  perform private.throttle_all(jsonb_build_array(
    jsonb_build_object('bucket', 'contact', 'subject', v_client, 'max', 5, 'seconds', 3600),
    jsonb_build_object('bucket', 'contact_all', 'subject', '', 'max', 200, 'seconds', 3600)),
    'Too many messages. Please try again later.');
  insert into public.contact_messages (name, email, message)
  values (v_name, v_email, v_message)
  returning id into v_id;
  return v_id;
end
$$;
revoke all on function public.submit_contact_message(p_name text, p_email text, p_message text) from public, anon, authenticated, service_role;
grant execute on function public.submit_contact_message(p_name text, p_email text, p_message text) to anon, authenticated, service_role;

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

-- Delivery of the queue (docs/product.md, Decisions). A sender claims due rows under
-- a lease, hands each to the mail server, and records the outcome; the service role only (the
-- deliver-mail function and the local stack's drainer), never a client.
--
-- Exactly once per row: a claim takes rows with `for update skip locked` and marks them 'sending'
-- with locked_until = now() + lease, so a second sender, concurrent or later, passes over them
-- while the lease runs. A finish applies only to a row still 'sending' under the same claim (its
-- attempt number), so a finished row is never reopened and a sender whose lease ran out cannot
-- overwrite the outcome of the sender that claimed the row after it. A sender that crashed
-- mid-delivery lets go when its lease passes: the row is claimed again. That is the one window
-- in which a mail can go out twice (the mail server accepted it, the sender died before
-- finishing); the Message-ID a sender sets from the row's id lets a receiver drop the copy.

-- Claims up to p_limit due rows (queued, or sending under a lease that has passed) for
-- p_lease_seconds: each becomes 'sending', its attempts counted. Returns what a sender needs (with
-- the event a pick's mail attaches as invite.ics, calendar).
create or replace function public.claim_outgoing_mail(p_limit integer, p_lease_seconds integer)
returns table (id uuid, to_address text, subject text, body text, attempts integer, calendar jsonb)
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  if p_limit is null or p_limit < 1 or p_limit > 100 then
    raise exception 'p_limit must be a whole number from 1 to 100.' using errcode = '22023', hint = 'invalid';
  end if;
  if p_lease_seconds is null or p_lease_seconds < 1 or p_lease_seconds > 3600 then
    raise exception 'p_lease_seconds must be a whole number from 1 to 3600.' using errcode = '22023', hint = 'invalid';
  end if;
  return query
  with due as (
    select m.id
    from public.outgoing_mail m
    where m.status in ('queued', 'sending') and m.next_attempt_at <= now()
      and (m.locked_until is null or m.locked_until < now())
    order by m.next_attempt_at, m.id
    limit p_limit
    for update skip locked
  )
  update public.outgoing_mail m
  set status = 'sending', attempts = m.attempts + 1, locked_until = now() + make_interval(secs => p_lease_seconds)
  from due
  where m.id = due.id
  returning m.id, m.to_address, m.subject, m.body, m.attempts, m.calendar;
end
$$;
revoke all on function public.claim_outgoing_mail(p_limit integer, p_lease_seconds integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_outgoing_mail(p_limit integer, p_lease_seconds integer) to service_role;

-- Records the outcome of delivering a claimed row; returns its status after ('sent', 'queued'
-- for a retry, 'failed'), or null when the row is not 'sending' (unknown, already finished, or,
-- with p_attempt, claimed again since). A failure is retried after p_retry_base_seconds *
-- 2^(attempts - 1), at most 6 hours, unless it is permanent (the mail server refused this mail,
-- an SMTP 5xx) or this was attempt p_max_attempts: then the row is 'failed' for good.
create or replace function public.finish_outgoing_mail(p_id uuid, p_ok boolean, p_error text, p_permanent boolean,
                                    p_retry_base_seconds numeric, p_max_attempts integer,
                                    p_attempt integer default null) returns text
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_status text;
begin
  if p_id is null or p_ok is null then
    raise exception 'p_id and p_ok are required.' using errcode = '22023', hint = 'invalid';
  end if;
  if p_retry_base_seconds is null or p_retry_base_seconds <= 0 or p_retry_base_seconds > 86400 then
    raise exception 'p_retry_base_seconds must be more than 0 and at most 86400.' using errcode = '22023', hint = 'invalid';
  end if;
  if p_max_attempts is null or p_max_attempts < 1 or p_max_attempts > 100 then
    raise exception 'p_max_attempts must be a whole number from 1 to 100.' using errcode = '22023', hint = 'invalid';
  end if;
  update public.outgoing_mail m
  set status = case when p_ok then 'sent'
                    when coalesce(p_permanent, false) or m.attempts >= p_max_attempts then 'failed'
                    else 'queued' end,
      sent_at = case when p_ok then now() else m.sent_at end,
      last_error = case when p_ok then m.last_error
                        else left(coalesce(nullif(btrim(p_error), ''), 'unknown error'), 1000) end,
      next_attempt_at = case when p_ok then m.next_attempt_at
                             else now() + make_interval(secs => least(
                                    p_retry_base_seconds * power(2::numeric, greatest(m.attempts - 1, 0)),
                                    21600)::double precision) end,
      locked_until = null
  where m.id = p_id and m.status = 'sending' and (p_attempt is null or m.attempts = p_attempt)
  returning m.status into v_status;
  return v_status;
end
$$;
revoke all on function public.finish_outgoing_mail(p_id uuid, p_ok boolean, p_error text, p_permanent boolean, p_retry_base_seconds numeric, p_max_attempts integer, p_attempt integer) from public, anon, authenticated, service_role;
grant execute on function public.finish_outgoing_mail(p_id uuid, p_ok boolean, p_error text, p_permanent boolean, p_retry_base_seconds numeric, p_max_attempts integer, p_attempt integer) to service_role;

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
