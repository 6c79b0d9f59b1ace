-- Row-level security: who sees and changes which rows, and the helpers the policies call.
--
-- The helpers live in schema private, which the API does not expose (no /rest/v1/rpc route
-- reaches them). A policy runs its functions as the caller, so `authenticated` keeps usage on
-- private and execute on exactly the helpers a policy names; each is security definer and
-- answers only about the caller. tests/db/rpc-surface.test.ts holds the list.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

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

drop policy if exists calendar_events_delete on public.calendar_events;
create policy calendar_events_delete on public.calendar_events for delete to authenticated
  using (owner_id = (select auth.uid()));

drop policy if exists calendar_events_insert on public.calendar_events;
create policy calendar_events_insert on public.calendar_events for insert to authenticated
  with check (owner_id = (select auth.uid()));

-- calendar_events: owner only.
drop policy if exists calendar_events_select on public.calendar_events;
create policy calendar_events_select on public.calendar_events for select to authenticated
  using (owner_id = (select auth.uid()));

drop policy if exists calendar_events_update on public.calendar_events;
create policy calendar_events_update on public.calendar_events for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));

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

drop policy if exists link_directories_delete on public.link_directories;
create policy link_directories_delete on public.link_directories for delete to authenticated
  using (owner_id = (select auth.uid()));

drop policy if exists link_directories_insert on public.link_directories;
create policy link_directories_insert on public.link_directories for insert to authenticated
  with check (owner_id = (select auth.uid()));

-- link_directories: owner or live member reads; owner writes.
drop policy if exists link_directories_select on public.link_directories;
create policy link_directories_select on public.link_directories for select to authenticated
  using (owner_id = (select auth.uid()) or id in (select private.viewable_directory_ids()));

drop policy if exists link_directories_update on public.link_directories;
create policy link_directories_update on public.link_directories for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));

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

-- user_profiles: own row; created by the sign-up trigger, removed with the account.
drop policy if exists user_profiles_select on public.user_profiles;
create policy user_profiles_select on public.user_profiles for select to authenticated
  using (id = (select auth.uid()));

drop policy if exists user_profiles_update on public.user_profiles;
create policy user_profiles_update on public.user_profiles for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

drop policy if exists user_votes_insert on public.user_votes;
create policy user_votes_insert on public.user_votes
  as permissive for insert to authenticated
  with check (((user_id = ( SELECT auth.uid() AS uid)) AND private.can_see_post(post_id)));

-- user_votes: own votes only, insert only.
drop policy if exists user_votes_select on public.user_votes;
create policy user_votes_select on public.user_votes for select to authenticated
  using (user_id = (select auth.uid()));

drop policy if exists voting_posts_delete on public.voting_posts;
create policy voting_posts_delete on public.voting_posts for delete to authenticated
  using (created_by_id = (select auth.uid()));

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

-- slot_answers (docs/product.md, Find a time): a voter's own row, and a team poll's rows to the
-- directory's people (the grid); written by the voter only (the rules check the poll).
drop policy if exists slot_answers_select on public.slot_answers;
create policy slot_answers_select on public.slot_answers for select to authenticated
  using (user_id = (select auth.uid())
         or (directory_id is not null and directory_id in (select private.viewable_directory_ids())));

drop policy if exists slot_answers_insert on public.slot_answers;
create policy slot_answers_insert on public.slot_answers for insert to authenticated
  with check (user_id = (select auth.uid()));

drop policy if exists slot_answers_update on public.slot_answers;
create policy slot_answers_update on public.slot_answers for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- event_invitations: the invitee's own; only the server's definer functions write them.
drop policy if exists event_invitations_select on public.event_invitations;
create policy event_invitations_select on public.event_invitations for select to authenticated
  using (user_id = (select auth.uid()));
