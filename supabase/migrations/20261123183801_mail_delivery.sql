-- Written by `npm run db:diff` from supabase/schemas: function public.claim_outgoing_mail, function public.finish_outgoing_mail.
-- Review it, then commit it with the schema change.

-- supabase/schemas/mail.sql
-- Claims up to p_limit due rows (queued, or sending under a lease that has passed) for
-- p_lease_seconds: each becomes 'sending', its attempts counted. Returns what a sender needs.
create or replace function public.claim_outgoing_mail(p_limit integer, p_lease_seconds integer)
returns table (id uuid, to_address text, subject text, body text, attempts integer)
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
  returning m.id, m.to_address, m.subject, m.body, m.attempts;
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
