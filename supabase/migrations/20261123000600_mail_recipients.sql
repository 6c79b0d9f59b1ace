-- a hole beyond the list: send-email let any signed-in account, confirmed or not, mail
-- any address with any text, an open relay for 50 mails an hour per account. A signed-in sender
-- may now mail only whom the product mails for them (docs/product.md):
--   - the support address (the contact form; send-email says so with p_support, from its own
--     configuration, which the database does not know);
--   - their own confirmed address ('Event Created', 'Recurring Event Created');
--   - an address invited, and still a member, in a directory they own (the invitation mail,
--     sent once the server recorded the invite).
-- Anything else is refused with 403 and nothing is queued. Mail the server sends on its own
-- behalf (p_sender null, p_client null) is not restricted.

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
revoke all on function private.may_mail(uuid, text) from public, anon, authenticated;
grant execute on function private.may_mail(uuid, text) to service_role;

drop function public.enqueue_mail(text, text, text, uuid, text);
create function public.enqueue_mail(p_to text, p_subject text, p_body text, p_sender uuid,
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
revoke all on function public.enqueue_mail(text, text, text, uuid, text, boolean) from public, anon, authenticated;
grant execute on function public.enqueue_mail(text, text, text, uuid, text, boolean) to service_role;
