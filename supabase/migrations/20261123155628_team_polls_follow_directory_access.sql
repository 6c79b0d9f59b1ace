-- Written by `npm run db:diff` from supabase/schemas: function private.sync_pull_page, function public.can_see_post, policy public.voting_posts.voting_posts_select, policy public.voting_posts.voting_posts_update.
-- Review it, then commit it with the schema change.

-- supabase/schemas/rls.sql
create or replace function public.can_see_post(post uuid) returns boolean
language sql stable security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.voting_posts p
    where p.id = post and p.deleted_at is null
      and (p.directory_id is null or public.can_view_directory(p.directory_id))
  )
$$;
revoke all on function public.can_see_post(post uuid) from public, anon, authenticated, service_role;
grant execute on function public.can_see_post(post uuid) to authenticated, service_role;

-- voting_posts: public polls to every signed-in user, team polls to the directory's people;
-- team polls are created by the directory's owner or members on the Team plan; the creator edits
-- while they still see it. Having created a team poll gives no access of its own: a member who
-- is removed loses the directory's polls with the directory.
drop policy if exists voting_posts_select on public.voting_posts;
create policy voting_posts_select on public.voting_posts for select to authenticated
  using (directory_id is null or directory_id in (select public.viewable_directory_ids()));

drop policy if exists voting_posts_update on public.voting_posts;
create policy voting_posts_update on public.voting_posts for update to authenticated
  using (created_by_id = (select auth.uid())
         and (directory_id is null or directory_id in (select public.viewable_directory_ids())))
  with check (created_by_id = (select auth.uid()));

-- supabase/schemas/sync_registry.sql

-- One page of a pull: [txid, table, id, row] of the rows the caller may see (each table's
-- visibleTo), changed since p_since (or live, on a first pull, or in a newly visible directory),
-- after the last one of the previous page, in (txid, table, id) order, at most p_limit + 1.
create or replace function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[],
  p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) returns jsonb
language plpgsql stable
set search_path = ''
as $$
begin
  return (
  select coalesce(jsonb_agg(jsonb_build_array(p.txid::text, p.tbl, p.id, p.r) order by p.txid, p.tbl, p.id), '[]')
  from (
    select a.txid, a.tbl, a.id, a.r
    from (
      select t.txid, 'user_profiles'::text collate "C" as tbl, t.id, t.deleted_at, null::uuid as dir, to_jsonb(t) as r
      from public.user_profiles t
      where t.id = p_uid
      union all
      select greatest(t.txid, o.owner_txid), 'link_directories', t.id, t.deleted_at, t.id,
             to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier)
      from public.link_directories t
      left join private.sync_directory_owners(p_view) o on o.directory_id = t.id
      where t.id = any (p_view)
      union all
      select t.txid, 'saved_links', t.id, t.deleted_at, t.directory_id, to_jsonb(t)
      from public.saved_links t
      where t.directory_id = any (p_view)
      union all
      select t.txid, 'directory_members', t.id, t.deleted_at, t.directory_id, to_jsonb(t)
      from public.directory_members t
      where t.directory_id = any (p_view) or t.user_email = p_email
      union all
      select t.txid, 'calendar_events', t.id, t.deleted_at, null::uuid, to_jsonb(t)
      from public.calendar_events t
      where t.owner_id = p_uid
      union all
      select t.txid, 'voting_posts', t.id, t.deleted_at, t.directory_id, to_jsonb(t)
      from public.voting_posts t
      where t.directory_id = any (p_view) or t.directory_id is null
      union all
      select t.txid, 'user_votes', t.id, t.deleted_at, null::uuid, to_jsonb(t)
      from public.user_votes t
      where t.user_id = p_uid
    ) a
    where ((p_since is null and a.deleted_at is null)
           or a.txid >= p_since
           or (a.dir = any (p_fresh) and a.deleted_at is null))
      and (p_after_txid is null or (a.txid, a.tbl, a.id) > (p_after_txid, p_after_tbl, p_after_id))
    order by a.txid, a.tbl, a.id
    limit p_limit + 1
  ) p);
end
$$;
revoke all on function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) to authenticated, service_role;
