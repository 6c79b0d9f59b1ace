-- Mail: who may be mailed, the invitation mail, the queue (public.outgoing_mail) and its delivery, contact messages. The mail that follows a row is in mail_calendar.sql.
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
