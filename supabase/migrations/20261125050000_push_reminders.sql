-- Web Push reminders: the devices that asked to be reminded with the app
-- closed (reached only through the RPCs of supabase/schemas/push.sql), and the sender's record
-- of each reminder it claimed, so a reminder reaches each device once per occurrence.

create table public.push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  endpoint text not null unique check (char_length(endpoint) <= 2000),
  p256dh text not null,
  auth text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now()
);
create index push_subscriptions_user_idx on public.push_subscriptions (user_id, last_used_at);
alter table public.push_subscriptions enable row level security;
-- Server-only: RLS on, no policy, and no privilege for client roles (the RPCs act for them).
revoke all on public.push_subscriptions from public, anon, authenticated;
grant all on public.push_subscriptions to service_role;

create table private.reminder_deliveries (
  event_id uuid not null,
  starts_at timestamptz not null,
  subscription_id uuid not null,
  sent_at timestamptz not null default now(),
  primary key (event_id, starts_at, subscription_id)
);
create index reminder_deliveries_sent_idx on private.reminder_deliveries (sent_at);
revoke all on table private.reminder_deliveries from public, anon, authenticated;
alter table private.reminder_deliveries enable row level security;

-- The sender's scan: events with a reminder, by start.
create index calendar_events_reminder_idx on public.calendar_events (starts_at)
  where reminder_minutes is not null and deleted_at is null;

-- Saves (or refreshes) the caller's push subscription for this device. The endpoint is the push
-- service's capability URL: https, at most 2,000 characters, a host name (no address literal or
-- single label); p256dh an uncompressed P-256 key (65 bytes) and auth a 16-byte secret, both
-- base64url without padding. An endpoint saved by another user is refused (the browser must make
-- a new subscription), so nobody can take over someone else's device. A user keeps at most 10
-- devices: saving an 11th forgets the one unused longest.
create or replace function public.save_push_subscription(p_endpoint text, p_p256dh text, p_auth text)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  v_owner uuid;
begin
  if uid is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  perform private.throttle('push_subscription_save', uid::text, 30, interval '1 hour',
                           'Too many changes to reminders on this device. Please try again later.');
  if p_endpoint is null or char_length(p_endpoint) > 2000
     or p_endpoint !~ '^https://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z][A-Za-z0-9-]*(:[0-9]{1,5})?/[!-~]*$' then
    raise exception 'The push subscription''s endpoint is not a valid https address.'
      using errcode = '22023', hint = 'invalid';
  end if;
  if p_p256dh is null or p_p256dh !~ '^B[A-Za-z0-9_-]{86}$' or p_auth is null or p_auth !~ '^[A-Za-z0-9_-]{22}$' then
    raise exception 'The push subscription''s keys are not valid.' using errcode = '22023', hint = 'invalid';
  end if;
  select s.user_id into v_owner from public.push_subscriptions s where s.endpoint = p_endpoint for update;
  if v_owner is not null and v_owner <> uid then
    raise exception 'This push subscription belongs to another account.' using errcode = '42501', hint = 'forbidden';
  end if;
  insert into public.push_subscriptions as s (user_id, endpoint, p256dh, auth, created_at, last_used_at)
  values (uid, p_endpoint, p_p256dh, p_auth, now(), now())
  on conflict (endpoint) do update set p256dh = excluded.p256dh, auth = excluded.auth, last_used_at = now()
  where s.user_id = uid;
  delete from public.push_subscriptions s
  where s.user_id = uid and s.id in (
    select o.id from public.push_subscriptions o where o.user_id = uid
    order by o.last_used_at desc, o.id desc offset 10);
end
$$;
revoke all on function public.save_push_subscription(p_endpoint text, p_p256dh text, p_auth text) from public, anon, authenticated, service_role;
grant execute on function public.save_push_subscription(p_endpoint text, p_p256dh text, p_auth text) to authenticated;

-- Forgets the caller's subscription with this endpoint (reminders turned off on that device).
-- Returns whether there was one; another user's endpoint is left alone (false).
create or replace function public.delete_push_subscription(p_endpoint text) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_found boolean;
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  delete from public.push_subscriptions s where s.endpoint = p_endpoint and s.user_id = auth.uid();
  get diagnostics v_found = row_count;
  return v_found;
end
$$;
revoke all on function public.delete_push_subscription(p_endpoint text) from public, anon, authenticated, service_role;
grant execute on function public.delete_push_subscription(p_endpoint text) to authenticated;

-- The sender's claim (send-reminders, with the service role): up to p_limit (1 to 1,000) due
-- reminders, one per (event, occurrence start, subscription), each recorded in
-- private.reminder_deliveries before it is returned, so however many senders run, each is
-- returned once. Due: the event or task has a reminder, is not deleted nor a completed task, and
-- its reminder time (starts_at - reminder_minutes) is in (p_now - 10 minutes, p_now]; a reminder
-- missed by more than 10 minutes is dropped, never sent late. An event moved to another start is
-- a new occurrence and reminds again. Claims older than two days are purged on the way.
create or replace function public.claim_due_reminders(p_now timestamptz, p_limit integer)
returns table (event_id uuid, title text, starts_at timestamptz, is_task boolean, reminder_minutes integer,
               time_zone text, username text, subscription_id uuid, endpoint text, p256dh text, auth text)
language sql volatile security definer
set search_path = ''
as $$
  with purged as (
    delete from private.reminder_deliveries d where d.sent_at < now() - interval '2 days'
  ),
  due as (
    select e.id as event_id, e.title, e.starts_at, e.is_task, e.reminder_minutes,
           coalesce(p.time_zone, 'UTC') as time_zone, p.username, s.id as subscription_id, s.endpoint, s.p256dh, s.auth,
           e.starts_at - make_interval(mins => e.reminder_minutes) as remind_at
    from public.calendar_events e
    join public.push_subscriptions s on s.user_id = e.owner_id
    left join public.user_profiles p on p.id = e.owner_id
    where e.reminder_minutes is not null and e.deleted_at is null and not (e.is_task and e.is_completed)
      and e.starts_at > p_now - interval '10 minutes' and e.starts_at <= p_now + interval '1 day 10 minutes'
      and e.starts_at - make_interval(mins => e.reminder_minutes) > p_now - interval '10 minutes'
      and e.starts_at - make_interval(mins => e.reminder_minutes) <= p_now
      and not exists (select 1 from private.reminder_deliveries r
                      where r.event_id = e.id and r.starts_at = e.starts_at and r.subscription_id = s.id)
    order by remind_at, e.id, s.id
    limit least(greatest(coalesce(p_limit, 100), 1), 1000)
  ),
  claimed as (
    insert into private.reminder_deliveries as r (event_id, starts_at, subscription_id, sent_at)
    select due.event_id, due.starts_at, due.subscription_id, now() from due
    on conflict do nothing
    returning r.event_id, r.starts_at, r.subscription_id
  )
  select due.event_id, due.title, due.starts_at, due.is_task, due.reminder_minutes, due.time_zone, due.username,
         due.subscription_id, due.endpoint, due.p256dh, due.auth
  from claimed
  join due on due.event_id = claimed.event_id and due.starts_at = claimed.starts_at
          and due.subscription_id = claimed.subscription_id
  order by due.remind_at, due.event_id, due.subscription_id
$$;
revoke all on function public.claim_due_reminders(p_now timestamptz, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.claim_due_reminders(p_now timestamptz, p_limit integer) to service_role;

-- The sender forgets a subscription the push service says is gone (404 or 410). Returns whether
-- there was one.
create or replace function public.forget_push_subscription(p_endpoint text) returns boolean
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_found boolean;
begin
  delete from public.push_subscriptions s where s.endpoint = p_endpoint;
  get diagnostics v_found = row_count;
  return v_found;
end
$$;
revoke all on function public.forget_push_subscription(p_endpoint text) from public, anon, authenticated, service_role;
grant execute on function public.forget_push_subscription(p_endpoint text) to service_role;
