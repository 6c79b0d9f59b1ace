-- Written by `npm run db:diff` from supabase/schemas: function private.client_address, function private.queue_event_mail, function private.queue_invitation_mail, function private.queue_series_mail, function private.sync_apply_directory, function private.sync_apply_event, function private.sync_apply_member, function private.sync_apply_series, function private.sync_insert_allowed, function private.text_limits, function private.throttle, function private.throttle_raise, function private.throttle_record, function private.throttle_wait, function public.get_public_directory, policy public.directory_members.directory_members_delete, policy public.directory_members.directory_members_insert, policy public.directory_members.directory_members_select, policy public.directory_members.directory_members_update, policy public.link_directories.link_directories_select, policy public.saved_links.saved_links_delete, policy public.saved_links.saved_links_insert, policy public.saved_links.saved_links_select, policy public.saved_links.saved_links_update, policy public.user_votes.user_votes_insert, policy public.voting_posts.voting_posts_insert, policy public.voting_posts.voting_posts_select, policy public.voting_posts.voting_posts_update, function private.calendar_events_mail, function private.calendar_series_mail, function private.can_edit_directory, function private.can_see_post, function private.can_view_directory, function private.directory_members_mail, function private.is_directory_member, function private.is_directory_owner, function private.my_tier, function private.set_directory_password, function private.viewable_directory_ids, trigger public.calendar_events.t40_mail, trigger public.calendar_events.t41_series_mail, trigger public.directory_members.t40_mail, function public.can_edit_directory (dropped), function public.can_see_post (dropped), function public.can_view_directory (dropped), function public.is_directory_member (dropped), function public.is_directory_owner (dropped), function public.my_tier (dropped), function public.set_directory_password (dropped), function public.viewable_directory_ids (dropped).
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
grant execute on function private.queue_invitation_mail(p_member uuid) to service_role;

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

-- The mail that follows a new row is queued by these triggers, after the insert and in its
-- savepoint: a refused mutation takes its mail back, and a replay (answered without applying)
-- inserts nothing and queues nothing. Triggers rather than calls from the apply functions, which
-- run as the caller: a trigger needs no execute right of the caller, so no client role can run
-- the queue functions themselves and queue mail outside a mutation. Definer, so the queue
-- functions run as their owner; each still queues only for the caller's own rows (auth.uid()).
create or replace function private.directory_members_mail() returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform private.queue_invitation_mail(new.id);
  return null;
end
$$;
revoke all on function private.directory_members_mail() from public, anon, authenticated, service_role;
grant execute on function private.directory_members_mail() to service_role;

-- 'Event Created' for a single event (not a task, not an occurrence of a series).
create or replace function private.calendar_events_mail() returns trigger
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  perform private.queue_event_mail(new.id);
  return null;
end
$$;
revoke all on function private.calendar_events_mail() from public, anon, authenticated, service_role;
grant execute on function private.calendar_events_mail() to service_role;

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
  for each row execute function private.directory_members_mail();

create or replace trigger t40_mail after insert on public.calendar_events
  for each row when (new.series_id is null and not new.is_task)
  execute function private.calendar_events_mail();

create or replace trigger t41_series_mail after insert on public.calendar_events
  referencing new table as added
  for each statement execute function private.calendar_series_mail();

-- supabase/schemas/plans.sql

-- The caller's plan. No policy or client calls it; kept for the service role.
create or replace function private.my_tier() returns text
language sql stable security definer
set search_path = ''
as $$
  select public.tier_of(auth.uid())
$$;
revoke all on function private.my_tier() from public, anon, authenticated, service_role;
grant execute on function private.my_tier() to service_role;

-- supabase/schemas/public_access.sql

-- {directory, links} of a public directory (or one the caller owns or is a member of).
create or replace function public.get_public_directory(p_directory_id uuid, p_password text default null)
returns json
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  dir public.link_directories;
  hash text;
  v_client text;
  v_message constant text := 'Too many attempts. Please wait a few minutes and try again.';
begin
  if p_directory_id is null then
    raise exception 'A directory id is required.' using errcode = '22023', hint = 'invalid';
  end if;
  select * into dir from public.link_directories d where d.id = p_directory_id and d.deleted_at is null;
  if not found or (not dir.is_public and not private.can_view_directory(dir.id)) then
    raise exception 'This directory is not available' using errcode = 'PT404', hint = 'not_found';
  end if;
  if dir.has_password and not private.can_view_directory(dir.id) then
    if p_password is null then
      raise exception 'This directory is password protected.' using errcode = '42501', hint = 'password_required';
    end if;
    v_client := private.client_address();
    perform private.throttle_lock('directory_password', dir.id::text);
    perform private.throttle_check('directory_password', dir.id || ' ' || v_client, 10, interval '15 minutes',
                                   v_message);
    perform private.throttle_check('directory_password_all', dir.id::text, 100, interval '1 hour', v_message);
    select s.password_hash into hash from public.directory_secrets s where s.directory_id = dir.id;
    if hash is null or octet_length(p_password) > 72 or extensions.crypt(p_password, hash) <> hash then
      perform private.throttle_record('directory_password', dir.id || ' ' || v_client);
      perform private.throttle_record('directory_password_all', dir.id::text);
      perform set_config('response.status', '403', true);
      return json_build_object('code', '42501', 'message', 'Wrong password.', 'details', null, 'hint', 'forbidden');
    end if;
    if hash ~ '^\$2[aby]\$0[0-9]\$' then
      -- A hash from before cost 10: stored again at cost 10 now that the password is known.
      update public.directory_secrets s
      set password_hash = extensions.crypt(p_password, extensions.gen_salt('bf', 10)), updated_at = now()
      where s.directory_id = dir.id;
    end if;
  end if;
  return json_build_object(
    'directory', json_build_object('id', dir.id, 'name', dir.name, 'description', dir.description,
      'color', dir.color, 'is_public', dir.is_public, 'has_password', dir.has_password,
      'owner_id', dir.owner_id, 'created_at', dir.created_at, 'updated_at', dir.updated_at),
    'links', coalesce((
      select json_agg(json_build_object('id', l.id, 'directory_id', l.directory_id, 'url', l.url,
        'title', l.title, 'notes', l.notes, 'description', l.description, 'tags', l.tags,
        'is_favorite', l.is_favorite, 'created_at', l.created_at) order by l.created_at desc)
      from public.saved_links l where l.directory_id = dir.id and l.deleted_at is null
    ), '[]'::json)
  );
end
$$;
revoke all on function public.get_public_directory(p_directory_id uuid, p_password text) from public, anon, authenticated, service_role;
grant execute on function public.get_public_directory(p_directory_id uuid, p_password text) to anon, authenticated, service_role;

-- Sets or clears the password of a directory the caller owns. Not an RPC: directory.create and
-- directory.update (sync_apply_directory, run as the caller) call it, so `authenticated` executes it.
create or replace function private.set_directory_password(p_directory_id uuid, p_password text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  dir record;
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '42501', hint = 'forbidden';
  end if;
  if p_directory_id is null then
    raise exception 'A directory id is required.' using errcode = '22023', hint = 'invalid';
  end if;
  select d.owner_id, d.deleted_at into dir from public.link_directories d where d.id = p_directory_id;
  if not found or dir.deleted_at is not null or dir.owner_id is distinct from auth.uid() then
    raise exception 'Directory not found.' using errcode = 'PT404', hint = 'not_found';
  end if;
  if coalesce(p_password, '') = '' then
    delete from public.directory_secrets where directory_id = p_directory_id;
    update public.link_directories set has_password = false where id = p_directory_id;
    return;
  end if;
  if public.tier_of(dir.owner_id) = 'free' then
    raise exception 'Upgrade to Pro to protect directories with a password.'
      using errcode = 'P0001', hint = 'limit_reached';
  end if;
  if octet_length(p_password) > 72 then
    raise exception 'The password can be at most 72 bytes.' using errcode = '22023', hint = 'invalid';
  end if;
  insert into public.directory_secrets (directory_id, password_hash)
  values (p_directory_id, extensions.crypt(p_password, extensions.gen_salt('bf', 10)))
  on conflict (directory_id) do update set password_hash = excluded.password_hash, updated_at = now();
  update public.link_directories set is_public = true, has_password = true where id = p_directory_id;
end
$$;
revoke all on function private.set_directory_password(p_directory_id uuid, p_password text) from public, anon, authenticated, service_role;
grant execute on function private.set_directory_password(p_directory_id uuid, p_password text) to authenticated, service_role;

-- supabase/schemas/rls.sql

-- Owner, or live editor (by confirmed e-mail), of a live directory. PL/pgSQL rather than SQL: the
-- row-level security of every link write calls it, and a PL/pgSQL function keeps its plans for
-- the session where an SQL function that cannot be inlined (security definer) is planned again
-- by every statement that calls it.
create or replace function private.can_edit_directory(dir uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.link_directories d
    where d.id = dir and d.deleted_at is null and (
      d.owner_id = auth.uid() or exists (
        select 1 from public.directory_members m
        where m.directory_id = d.id and m.deleted_at is null and m.role = 'editor'
          and m.user_email = (select private.confirmed_email())
      )
    )
  );
end
$$;
revoke all on function private.can_edit_directory(dir uuid) from public, anon, authenticated, service_role;
grant execute on function private.can_edit_directory(dir uuid) to authenticated, service_role;

-- A live membership of the caller's confirmed e-mail (any role). No policy names it (only the
-- definer can_view_directory calls it), so no client role executes it.
create or replace function private.is_directory_member(dir uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.directory_members m
    where m.directory_id = dir and m.deleted_at is null and m.user_email = (select private.confirmed_email())
  );
end
$$;
revoke all on function private.is_directory_member(dir uuid) from public, anon, authenticated, service_role;
grant execute on function private.is_directory_member(dir uuid) to service_role;

create or replace function private.is_directory_owner(dir uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.link_directories d where d.id = dir and d.owner_id = auth.uid());
end
$$;
revoke all on function private.is_directory_owner(dir uuid) from public, anon, authenticated, service_role;
grant execute on function private.is_directory_owner(dir uuid) to authenticated, service_role;

create or replace function private.can_view_directory(dir uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select private.is_directory_owner(dir) or private.is_directory_member(dir)
$$;
revoke all on function private.can_view_directory(dir uuid) from public, anon, authenticated, service_role;
grant execute on function private.can_view_directory(dir uuid) to authenticated, service_role;

create or replace function private.can_see_post(post uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.voting_posts p
    where p.id = post and p.deleted_at is null
      and (p.directory_id is null or private.can_view_directory(p.directory_id))
  )
$$;
revoke all on function private.can_see_post(post uuid) from public, anon, authenticated, service_role;
grant execute on function private.can_see_post(post uuid) to authenticated, service_role;

-- Every directory the caller owns or is a live member of by confirmed e-mail (PL/pgSQL: the
-- read policies call it once per statement, and its plan is kept for the session).
create or replace function private.viewable_directory_ids() returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select d.id from public.link_directories d where d.owner_id = auth.uid()
    union
    select m.directory_id from public.directory_members m
    where m.deleted_at is null and m.user_email = (select private.confirmed_email());
end
$$;
revoke all on function private.viewable_directory_ids() from public, anon, authenticated, service_role;
grant execute on function private.viewable_directory_ids() to authenticated, service_role;

drop policy if exists directory_members_delete on public.directory_members;
create policy directory_members_delete on public.directory_members for delete to authenticated
  using (private.is_directory_owner(directory_id));

drop policy if exists directory_members_insert on public.directory_members;
create policy directory_members_insert on public.directory_members for insert to authenticated
  with check (private.is_directory_owner(directory_id));

drop policy if exists directory_members_select on public.directory_members;
create policy directory_members_select on public.directory_members
  as permissive for select to authenticated
  using (((directory_id IN (select private.viewable_directory_ids())) OR (user_email = ( SELECT private.confirmed_email() AS confirmed_email))));

drop policy if exists directory_members_update on public.directory_members;
create policy directory_members_update on public.directory_members for update to authenticated
  using (private.is_directory_owner(directory_id)) with check (private.is_directory_owner(directory_id));

-- link_directories: owner or live member reads; owner writes.
drop policy if exists link_directories_select on public.link_directories;
create policy link_directories_select on public.link_directories for select to authenticated
  using (owner_id = (select auth.uid()) or id in (select private.viewable_directory_ids()));

drop policy if exists saved_links_delete on public.saved_links;
create policy saved_links_delete on public.saved_links for delete to authenticated
  using (private.can_edit_directory(directory_id));

drop policy if exists saved_links_insert on public.saved_links;
create policy saved_links_insert on public.saved_links for insert to authenticated
  with check (private.can_edit_directory(directory_id));

-- saved_links: owner or member reads; owner or editor writes.
drop policy if exists saved_links_select on public.saved_links;
create policy saved_links_select on public.saved_links for select to authenticated
  using (directory_id in (select private.viewable_directory_ids()));

drop policy if exists saved_links_update on public.saved_links;
create policy saved_links_update on public.saved_links for update to authenticated
  using (private.can_edit_directory(directory_id)) with check (private.can_edit_directory(directory_id));

drop policy if exists user_votes_insert on public.user_votes;
create policy user_votes_insert on public.user_votes
  as permissive for insert to authenticated
  with check (((user_id = ( SELECT auth.uid() AS uid)) AND private.can_see_post(post_id)));

drop policy if exists voting_posts_insert on public.voting_posts;
create policy voting_posts_insert on public.voting_posts
  as permissive for insert to authenticated
  with check (((created_by_id = ( SELECT auth.uid() AS uid)) AND ((directory_id IS NULL) OR private.can_view_directory(directory_id))));

-- voting_posts: public polls to every signed-in user, team polls to the directory's people;
-- team polls are created by the directory's owner or members on the Team plan; the creator edits
-- while they still see it. Having created a team poll gives no access of its own: a member who
-- is removed loses the directory's polls with the directory.
drop policy if exists voting_posts_select on public.voting_posts;
create policy voting_posts_select on public.voting_posts for select to authenticated
  using (directory_id is null or directory_id in (select private.viewable_directory_ids()));

drop policy if exists voting_posts_update on public.voting_posts;
create policy voting_posts_update on public.voting_posts for update to authenticated
  using (created_by_id = (select auth.uid())
         and (directory_id is null or directory_id in (select private.viewable_directory_ids())))
  with check (created_by_id = (select auth.uid()));

-- supabase/schemas/rules.sql

-- Refuses a value over its maximum. TG_ARGV: (column, maximum, message) triplets; a text column
-- is measured in characters, an array column in items. Runs before the rule triggers (t05), so an
-- oversized value costs no further work.
create or replace function private.text_limits() returns trigger
language plpgsql
set search_path = ''
as $$
declare
  row_json jsonb := to_jsonb(new);
  value jsonb;
  i integer := 0;
begin
  while i + 2 < tg_nargs loop
    value := row_json -> tg_argv[i];
    if (jsonb_typeof(value) = 'string' and char_length(value #>> '{}') > tg_argv[i + 1]::integer)
       or (jsonb_typeof(value) = 'array' and jsonb_array_length(value) > tg_argv[i + 1]::integer) then
      raise exception '%', tg_argv[i + 2] using errcode = '22001', hint = 'invalid';
    end if;
    i := i + 3;
  end loop;
  return new;
end
$$;
revoke all on function private.text_limits() from public, anon, authenticated, service_role;
-- A trigger function: a trigger runs it without an execute right, so no client role has one.
grant execute on function private.text_limits() to service_role;

-- supabase/schemas/sync_apply.sql

create or replace function private.sync_apply_directory(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
  v_public boolean;
  v_password text := private.sync_text(p_args, 'password');
begin
  if p_args ? 'is_public' then
    v_public := private.sync_bool(p_args, 'is_public');
  end if;
  case p_name
    when 'directory.create' then
      insert into public.link_directories (id, name, description, color, is_public, owner_id)
      values (v_id, private.sync_text(p_args, 'name'), private.sync_text(p_args, 'description'),
              private.sync_text(p_args, 'color'), coalesce(v_public, false), auth.uid());
      -- A password needs a public directory: is_public false (or absent, so private) ignores it.
      if coalesce(v_public, false) and coalesce(v_password, '') <> '' then
        perform private.set_directory_password(v_id, v_password);
      end if;
    when 'directory.update' then
      update public.link_directories d set
        name = case when p_args ? 'name' then private.sync_text(p_args, 'name') else d.name end,
        description = case when p_args ? 'description' then private.sync_text(p_args, 'description')
                           else d.description end,
        color = case when p_args ? 'color' then private.sync_text(p_args, 'color') else d.color end,
        is_public = coalesce(v_public, d.is_public)
      where d.id = v_id and d.deleted_at is null;
      if not found then
        perform private.sync_missing('link_directories', v_id);
      end if;
      -- is_public false clears the password (the rule trigger does it); null or '' clears it too.
      if p_args ? 'password' and v_public is distinct from false then
        perform private.set_directory_password(v_id, v_password);
      end if;
    when 'directory.delete' then
      update public.link_directories d set deleted_at = now() where d.id = v_id and d.deleted_at is null;
      if not found then
        perform private.sync_missing('link_directories', v_id, true);
      end if;
  end case;
end
$$;
revoke all on function private.sync_apply_directory(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_directory(p_name text, p_args jsonb) to authenticated, service_role;

create or replace function private.sync_apply_event(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_id uuid := private.sync_uuid(p_args, 'id');
begin
  case p_name
    when 'event.create' then
      insert into public.calendar_events (id, title, description, starts_at, ends_at, is_task, priority, owner_id,
                                          reminder_minutes)
      values (v_id, private.sync_text(p_args, 'title'), private.sync_text(p_args, 'description'),
              private.sync_time(p_args, 'starts_at'), private.sync_time(p_args, 'ends_at'),
              case when p_args ? 'is_task' then private.sync_bool(p_args, 'is_task') else false end,
              private.sync_text(p_args, 'priority'), auth.uid(), private.sync_reminder(p_args, 'reminder_minutes'));
      -- Its mail is queued by the insert's trigger (mail.sql), in this savepoint.
      return;
    when 'event.update', 'occurrence.detach' then
      update public.calendar_events e set
        title = case when p_args ? 'title' then private.sync_text(p_args, 'title') else e.title end,
        description = case when p_args ? 'description' then private.sync_text(p_args, 'description')
                           else e.description end,
        starts_at = case when p_args ? 'starts_at' then private.sync_time(p_args, 'starts_at') else e.starts_at end,
        ends_at = case when p_args ? 'ends_at' then private.sync_time(p_args, 'ends_at') else e.ends_at end,
        is_task = case when p_args ? 'is_task' and p_name = 'event.update' then private.sync_bool(p_args, 'is_task')
                       else e.is_task end,
        -- Events have no priority: turning a task into an event clears it.
        priority = case when p_args ? 'is_task' and p_name = 'event.update' and not private.sync_bool(p_args, 'is_task')
                          then null
                        when p_args ? 'priority' and p_name = 'event.update' then private.sync_text(p_args, 'priority')
                        else e.priority end,
        reminder_minutes = case when p_args ? 'reminder_minutes' then private.sync_reminder(p_args, 'reminder_minutes')
                                else e.reminder_minutes end,
        series_id = case when p_name = 'occurrence.detach' then null else e.series_id end,
        recurrence_rule = case when p_name = 'occurrence.detach' then 'none' else e.recurrence_rule end,
        recurrence_end_date = case when p_name = 'occurrence.detach' then null else e.recurrence_end_date end
      where e.id = v_id and e.deleted_at is null;
    when 'task.set_completed' then
      update public.calendar_events e set is_completed = private.sync_bool(p_args, 'value')
      where e.id = v_id and e.deleted_at is null;
    when 'event.delete' then
      update public.calendar_events e set deleted_at = now() where e.id = v_id and e.deleted_at is null;
  end case;
  if not found then
    perform private.sync_missing('calendar_events', v_id, p_name = 'event.delete');
  end if;
end
$$;
revoke all on function private.sync_apply_event(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_event(p_name text, p_args jsonb) to authenticated, service_role;

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
      -- Its mail is queued by the insert's trigger (mail.sql), in this savepoint.
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
revoke all on function private.sync_apply_member(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_member(p_name text, p_args jsonb) to authenticated, service_role;

create or replace function private.sync_apply_series(p_name text, p_args jsonb) returns void
language plpgsql
set search_path = ''
as $$
declare
  v_old uuid;
begin
  case p_name
    when 'series.create' then
      perform private.sync_insert_series(p_args);
    when 'series.replace' then
      -- One mutation, one savepoint: the old set goes and the new set comes, or neither.
      v_old := private.sync_uuid(p_args, 'old_series_id');
      if not exists (select 1 from public.calendar_events e where e.series_id = v_old) then
        raise exception 'Not found.' using errcode = 'P0002';
      end if;
      update public.calendar_events e set deleted_at = now() where e.series_id = v_old and e.deleted_at is null;
      -- The replacement is a new series: its insert's trigger queues its own mail (mail.sql).
      perform private.sync_insert_series(p_args);
    when 'series.delete' then
      v_old := private.sync_uuid(p_args, 'series_id');
      update public.calendar_events e set deleted_at = now() where e.series_id = v_old and e.deleted_at is null;
      if not found and not exists (select 1 from public.calendar_events e where e.series_id = v_old) then
        raise exception 'Not found.' using errcode = 'P0002';
      end if;
  end case;
end
$$;
revoke all on function private.sync_apply_series(p_name text, p_args jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_apply_series(p_name text, p_args jsonb) to authenticated, service_role;

-- A non-owner's insert into a shared directory is forbidden before the owner's plan limits are
-- checked (the rule triggers run before an INSERT's RLS check). Definer: it looks at the
-- directory whatever the caller may see, and answers only forbidden or nothing.
create or replace function private.sync_insert_allowed(p_directory uuid, p_owner_only boolean) returns void
language plpgsql stable security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.link_directories d where d.id = p_directory and d.deleted_at is null)
     and not (case when p_owner_only then private.is_directory_owner(p_directory)
                   else private.can_edit_directory(p_directory) end) then
    raise exception 'You do not have permission to change this.' using errcode = '42501';
  end if;
end
$$;
revoke all on function private.sync_insert_allowed(p_directory uuid, p_owner_only boolean) from public, anon, authenticated, service_role;
grant execute on function private.sync_insert_allowed(p_directory uuid, p_owner_only boolean) to authenticated, service_role;

-- supabase/schemas/throttles.sql

-- The client address of the current request: the first X-Forwarded-For entry that the API
-- gateway set (hosted Supabase's gateway, or the local stack, which overwrites any value the
-- client sent unless a trusted proxy is configured). 'unknown' without one.
create or replace function private.client_address() returns text
language sql stable
set search_path = ''
as $$
  select coalesce(
    nullif(btrim(split_part(
      coalesce(nullif(current_setting('request.headers', true), '')::json ->> 'x-forwarded-for', ''), ',', 1)), ''),
    'unknown')
$$;
revoke all on function private.client_address() from public, anon, authenticated, service_role;
grant execute on function private.client_address() to service_role;

-- Checks the limit, raising 429 when it is reached, and records the attempt otherwise.
create or replace function private.throttle(p_bucket text, p_subject text, p_max integer, p_window interval,
                                            p_message text default 'Too many requests. Please try again later.')
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_wait integer := private.throttle_wait(p_bucket, p_subject, p_max, p_window);
begin
  if v_wait > 0 then
    perform private.throttle_raise(v_wait, p_message);
  end if;
  perform private.throttle_record(p_bucket, p_subject);
end
$$;
revoke all on function private.throttle(p_bucket text, p_subject text, p_max integer, p_window interval, p_message text) from public, anon, authenticated, service_role;
grant execute on function private.throttle(p_bucket text, p_subject text, p_max integer, p_window interval, p_message text) to service_role;

-- Raises the throttled error, which PostgREST answers with 429, the message and Retry-After
-- (PostgREST's `raise sqlstate 'PGRST'` form: message and detail are JSON).
create or replace function private.throttle_raise(p_wait integer, p_message text) returns void
language plpgsql volatile
set search_path = ''
as $$
begin
  raise sqlstate 'PGRST' using
    message = json_build_object('code', 'over_request_rate_limit', 'message', p_message,
                                'details', null, 'hint', 'throttled')::text,
    detail = json_build_object('status', 429, 'headers',
                               json_build_object('Retry-After', greatest(p_wait, 1)::text))::text;
end
$$;
revoke all on function private.throttle_raise(p_wait integer, p_message text) from public, anon, authenticated, service_role;
grant execute on function private.throttle_raise(p_wait integer, p_message text) to service_role;

create or replace function private.throttle_record(p_bucket text, p_subject text) returns void
language plpgsql volatile security definer
set search_path = ''
as $$
begin
  insert into private.throttle_attempts (bucket, subject) values (p_bucket, left(coalesce(p_subject, ''), 320));
  if random() < 0.01 then
    perform private.throttle_purge();
  end if;
end
$$;
revoke all on function private.throttle_record(p_bucket text, p_subject text) from public, anon, authenticated, service_role;
grant execute on function private.throttle_record(p_bucket text, p_subject text) to service_role;

-- Seconds until one more attempt is allowed under (p_max attempts per p_window), 0 when it is
-- allowed now. Does not record anything.
create or replace function private.throttle_wait(p_bucket text, p_subject text, p_max integer, p_window interval)
returns integer
language sql stable security definer
set search_path = ''
as $$
  select coalesce((
    select greatest(1, ceil(extract(epoch from (a.attempted_at + p_window - clock_timestamp())))::integer)
    from (
      select t.attempted_at from private.throttle_attempts t
      where t.bucket = p_bucket and t.subject = coalesce(p_subject, '')
        and t.attempted_at > clock_timestamp() - p_window
      order by t.attempted_at desc
      offset greatest(p_max - 1, 0) limit 1
    ) a
  ), 0)
$$;
revoke all on function private.throttle_wait(p_bucket text, p_subject text, p_max integer, p_window interval) from public, anon, authenticated, service_role;
grant execute on function private.throttle_wait(p_bucket text, p_subject text, p_max integer, p_window interval) to service_role;

-- No schema file declares these any more:
drop function public.can_edit_directory(dir uuid);
drop function public.can_see_post(post uuid);
drop function public.can_view_directory(dir uuid);
drop function public.is_directory_member(dir uuid);
drop function public.is_directory_owner(dir uuid);
drop function public.my_tier();
drop function public.set_directory_password(p_directory_id uuid, p_password text);
drop function public.viewable_directory_ids();
