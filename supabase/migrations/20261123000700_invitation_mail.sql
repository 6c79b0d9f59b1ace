-- docs/architecture.md: the invitation mail is the server's job. The apply of
-- member.invite queues it in public.outgoing_mail in the same savepoint that inserts the member,
-- so it goes out exactly once whichever tab, device or worker pushed the invite, and never for a
-- refused invite (the savepoint is rolled back) or a replay (sync_push_one answers a replay with
-- the recorded answer and applies nothing). The client no longer composes or sends it.
--
-- The mailed link is absolute, {site_url}/Links/{owner username}/dir/{directory id}, so the
-- database keeps the app's public origin in private.settings (key 'site_url'). The local stack
-- writes it at start (SITE_URL, or its own URL); a hosted install sets it once (docs/deploy.md).
-- Without it the link is the relative path.

create table if not exists private.settings (
  key text primary key check (char_length(key) <= 100),
  value text not null check (char_length(value) <= 2000)
);
revoke all on table private.settings from public, anon, authenticated;
grant select, insert, update, delete on table private.settings to service_role;

-- A setting's value, or null (definer: no client role can read private.settings).
create or replace function private.setting(p_key text) returns text
language sql stable security definer
set search_path = ''
as $$
  select s.value from private.settings s where s.key = p_key
$$;

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

create or replace function private.sync_apply_member(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'member.invite' then
      perform private.sync_insert_allowed(private.sync_uuid(p_args, 'directory_id'), true);
      insert into public.directory_members (id, directory_id, user_email, role)
      values (v_id, private.sync_uuid(p_args, 'directory_id'), private.sync_text(p_args, 'user_email'),
              coalesce(private.sync_text(p_args, 'role'), 'viewer'));
      -- Same savepoint as the insert: a refusal later in this mutation takes the mail back too.
      perform private.queue_invitation_mail(v_id);
      return;
    when 'member.set_role' then
      update public.directory_members m set role = private.sync_text(p_args, 'role')
      where m.id = v_id and m.deleted_at is null;
    when 'member.remove' then
      update public.directory_members m set deleted_at = now() where m.id = v_id and m.deleted_at is null;
  end case;
  if not found then
    perform private.sync_missing('directory_members', v_id, p_name = 'member.remove');
  end if;
end
$$;

revoke all on function private.setting(text), private.queue_invitation_mail(uuid) from public, anon, authenticated;
grant execute on function private.queue_invitation_mail(uuid) to authenticated, service_role;
grant execute on function private.setting(text) to service_role;
