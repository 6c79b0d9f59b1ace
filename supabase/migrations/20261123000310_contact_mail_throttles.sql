-- Contact messages and queued mail throttled inside PostgreSQL, so the limits
-- hold behind hosted PostgREST and across server instances.
--
-- Limits (private.throttle_attempts; a throttled call answers 429 with Retry-After):
--   contact messages          5 an hour per client address; 200 an hour from everyone together.
--   mail from a signed-in user  50 an hour per sender (enqueue_mail's p_sender).
--   anonymous mail (support)  10 an hour per client address (p_client); 200 an hour together.
-- Mail the server sends on its own behalf (no sender and no client address) is not limited here.
-- Only accepted messages and mails count; a refused one (invalid, or throttled) records nothing.

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
revoke all on function private.throttle_all(jsonb, text) from public, anon, authenticated;
grant execute on function private.throttle_all(jsonb, text) to service_role;

create or replace function public.submit_contact_message(p_name text, p_email text, p_message text) returns uuid
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := lower(btrim(coalesce(p_email, '')));
  -- The spec cuts the message to 4000 characters (the form does too).
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

-- Queues a mail for the local mailbox or the mail provider; only the server may call it.
-- p_sender: the signed-in user who sends it; p_client: the client address of an anonymous request
-- (send-email passes it); both null for mail the server sends on its own behalf.
drop function public.enqueue_mail(text, text, text, uuid);
create function public.enqueue_mail(p_to text, p_subject text, p_body text, p_sender uuid,
                                    p_client text default null) returns uuid
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
  if p_sender is not null then
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
revoke all on function public.enqueue_mail(text, text, text, uuid, text) from public, anon, authenticated;
grant execute on function public.enqueue_mail(text, text, text, uuid, text) to service_role;
