-- Delivery of the mail queue: each row of public.outgoing_mail carries its
-- delivery state, so a sender (the deliver-mail function, or the local stack's drainer) delivers
-- it exactly once with retries and back-off. The functions that claim and finish rows are in
-- supabase/schemas/mail.sql (public.claim_outgoing_mail, public.finish_outgoing_mail).
--
--   status           queued → sending (claimed under a lease) → sent, or back to queued after a
--                    temporary failure, or failed (a permanent refusal, or too many attempts)
--   attempts         delivery attempts made so far (counted when a row is claimed)
--   next_attempt_at  not before this moment (the back-off after a failure)
--   locked_until     the lease of the sender that claimed the row; once it has passed, a sender
--                    that crashed mid-delivery has let go and the row can be claimed again
--   last_error       the last failure, as the mail server or the network said it (at most 1000)
--   sent_at          when the mail server accepted it
--
-- Mail queued before this migration was only shown by the local mailbox (nothing delivered mail
-- before it). It is marked 'sent' here, with sent_at its queueing time, so that configuring a
-- mail provider later does not send old confirmation links and notices to their recipients all
-- at once. Mail queued from now on stays 'queued' until a provider delivers it; without one the
-- local mailbox keeps showing it as before.

alter table public.outgoing_mail
  add column status text not null default 'queued'
    constraint outgoing_mail_status_check check (status in ('queued', 'sending', 'sent', 'failed')),
  add column attempts integer not null default 0
    constraint outgoing_mail_attempts_check check (attempts >= 0),
  add column next_attempt_at timestamptz not null default now(),
  add column locked_until timestamptz,
  add column last_error text
    constraint outgoing_mail_last_error_check check (char_length(last_error) <= 1000),
  add column sent_at timestamptz;

update public.outgoing_mail set status = 'sent', sent_at = created_at;

-- What a sender's claim reads: the rows still to deliver, by when they are due. Sent and failed
-- rows, which are nearly all of the table, are not in it.
create index outgoing_mail_due_idx on public.outgoing_mail (next_attempt_at)
  where status in ('queued', 'sending');
