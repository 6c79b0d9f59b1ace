-- Written by `npm run db:diff` from supabase/schemas: function private.queue_invitation_mail.
-- Review it, then commit it with the schema change.

-- supabase/schemas/mail.sql
-- Queues the mail of a member the caller has just invited (docs/product.md; the same text the client
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
grant execute on function private.queue_invitation_mail(p_member uuid) to authenticated, service_role;
