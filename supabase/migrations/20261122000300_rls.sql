-- Row-level security (spec section 6). Supabase grants every API role all privileges on
-- public tables, so these policies are what protects the rows. One policy per command;
-- a command without a policy is refused. Policies are for `authenticated`: an anonymous
-- caller reaches no row (public directories and profiles go through RPC functions).
--
-- The helpers are SECURITY DEFINER so a policy on one table can look at another without
-- recursing into that table's policies. They read the caller from the JWT only.

create or replace function public.is_directory_owner(dir uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (select 1 from public.link_directories d where d.id = dir and d.owner_id = auth.uid())
$$;

-- A live membership of the caller's e-mail (any role).
create or replace function public.is_directory_member(dir uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.directory_members m
    where m.directory_id = dir and m.deleted_at is null and m.user_email = lower(auth.email())
  )
$$;

create or replace function public.can_view_directory(dir uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select public.is_directory_owner(dir) or public.is_directory_member(dir)
$$;

-- Owner, or live editor, of a live directory.
create or replace function public.can_edit_directory(dir uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.link_directories d
    where d.id = dir and d.deleted_at is null and (
      d.owner_id = auth.uid() or exists (
        select 1 from public.directory_members m
        where m.directory_id = d.id and m.deleted_at is null and m.role = 'editor'
          and m.user_email = lower(auth.email())
      )
    )
  )
$$;

-- Every directory the caller owns or is a live member of (evaluated once per query).
create or replace function public.viewable_directory_ids() returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  select d.id from public.link_directories d where d.owner_id = auth.uid()
  union
  select m.directory_id from public.directory_members m
  where m.deleted_at is null and m.user_email = lower(auth.email())
$$;

create or replace function public.can_see_post(post uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.voting_posts p
    where p.id = post and p.deleted_at is null
      and (p.directory_id is null or p.created_by_id = auth.uid() or public.can_view_directory(p.directory_id))
  )
$$;

create or replace function public.my_tier() returns text
language sql stable security definer
set search_path = ''
as $$
  select public.tier_of(auth.uid())
$$;

revoke all on function public.is_directory_owner(uuid), public.is_directory_member(uuid),
  public.can_view_directory(uuid), public.can_edit_directory(uuid), public.viewable_directory_ids(),
  public.can_see_post(uuid), public.my_tier()
  from public, anon;
grant execute on function public.is_directory_owner(uuid), public.is_directory_member(uuid),
  public.can_view_directory(uuid), public.can_edit_directory(uuid), public.viewable_directory_ids(),
  public.can_see_post(uuid), public.my_tier()
  to authenticated, service_role;

-- ---------------------------------------------------------------------------
alter table public.user_profiles enable row level security;
alter table public.link_directories enable row level security;
alter table public.saved_links enable row level security;
alter table public.directory_members enable row level security;
alter table public.calendar_events enable row level security;
alter table public.voting_posts enable row level security;
alter table public.user_votes enable row level security;
alter table public.directory_secrets enable row level security;
alter table public.contact_messages enable row level security;
alter table public.outgoing_mail enable row level security;
alter table public.billing_customers enable row level security;

-- TRUNCATE, REFERENCES and TRIGGER are not governed by RLS: no client role keeps them.
revoke truncate, references, trigger on public.user_profiles, public.link_directories, public.saved_links,
  public.directory_members, public.calendar_events, public.voting_posts, public.user_votes
  from anon, authenticated;
-- Server-only tables: RLS on, no policy, and no privilege at all for client roles.
revoke all on public.directory_secrets, public.contact_messages, public.outgoing_mail, public.billing_customers
  from public, anon, authenticated;
grant all on public.directory_secrets, public.contact_messages, public.outgoing_mail, public.billing_customers
  to service_role;

-- user_profiles: own row; created by the sign-up trigger, removed with the account.
create policy user_profiles_select on public.user_profiles for select to authenticated
  using (id = (select auth.uid()));
create policy user_profiles_update on public.user_profiles for update to authenticated
  using (id = (select auth.uid())) with check (id = (select auth.uid()));

-- link_directories: owner or live member reads; owner writes.
create policy link_directories_select on public.link_directories for select to authenticated
  using (owner_id = (select auth.uid()) or id in (select public.viewable_directory_ids()));
create policy link_directories_insert on public.link_directories for insert to authenticated
  with check (owner_id = (select auth.uid()));
create policy link_directories_update on public.link_directories for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy link_directories_delete on public.link_directories for delete to authenticated
  using (owner_id = (select auth.uid()));

-- saved_links: owner or member reads; owner or editor writes.
create policy saved_links_select on public.saved_links for select to authenticated
  using (directory_id in (select public.viewable_directory_ids()));
create policy saved_links_insert on public.saved_links for insert to authenticated
  with check (public.can_edit_directory(directory_id));
create policy saved_links_update on public.saved_links for update to authenticated
  using (public.can_edit_directory(directory_id)) with check (public.can_edit_directory(directory_id));
create policy saved_links_delete on public.saved_links for delete to authenticated
  using (public.can_edit_directory(directory_id));

-- directory_members: owner and live members read (and a user reads their own rows, so a
-- removal reaches them); only the owner manages members.
create policy directory_members_select on public.directory_members for select to authenticated
  using (directory_id in (select public.viewable_directory_ids()) or user_email = lower((select auth.email())));
create policy directory_members_insert on public.directory_members for insert to authenticated
  with check (public.is_directory_owner(directory_id));
create policy directory_members_update on public.directory_members for update to authenticated
  using (public.is_directory_owner(directory_id)) with check (public.is_directory_owner(directory_id));
create policy directory_members_delete on public.directory_members for delete to authenticated
  using (public.is_directory_owner(directory_id));

-- calendar_events: owner only.
create policy calendar_events_select on public.calendar_events for select to authenticated
  using (owner_id = (select auth.uid()));
create policy calendar_events_insert on public.calendar_events for insert to authenticated
  with check (owner_id = (select auth.uid()));
create policy calendar_events_update on public.calendar_events for update to authenticated
  using (owner_id = (select auth.uid())) with check (owner_id = (select auth.uid()));
create policy calendar_events_delete on public.calendar_events for delete to authenticated
  using (owner_id = (select auth.uid()));

-- voting_posts: public polls to every signed-in user, team polls to the directory's people;
-- team polls are created by the directory's owner or members on the Team plan; the creator edits.
create policy voting_posts_select on public.voting_posts for select to authenticated
  using (directory_id is null or created_by_id = (select auth.uid())
         or directory_id in (select public.viewable_directory_ids()));
create policy voting_posts_insert on public.voting_posts for insert to authenticated
  with check (created_by_id = (select auth.uid()) and (
    directory_id is null or (public.can_view_directory(directory_id) and public.my_tier() = 'team')));
create policy voting_posts_update on public.voting_posts for update to authenticated
  using (created_by_id = (select auth.uid())) with check (created_by_id = (select auth.uid()));
create policy voting_posts_delete on public.voting_posts for delete to authenticated
  using (created_by_id = (select auth.uid()));

-- user_votes: own votes only, insert only.
create policy user_votes_select on public.user_votes for select to authenticated
  using (user_id = (select auth.uid()));
create policy user_votes_insert on public.user_votes for insert to authenticated
  with check (user_id = (select auth.uid()) and user_email = lower((select auth.email()))
              and public.can_see_post(post_id));
