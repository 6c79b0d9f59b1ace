-- claim_outgoing_mail also returns a mail's calendar (the event a time poll's pick attaches as
-- invite.ics): a new result column is a new return type, which `create or replace` cannot change.
-- The next migration creates it again from supabase/schemas/mail.sql.
drop function if exists public.claim_outgoing_mail(integer, integer);
