-- The poke (docs/sync-protocol.md, "Poke"): after a push commits, who must pull now.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration.

-- The users a committed sync_push answer concerns: the pusher when anything applied, and for
-- every directory an applied mutation touched (its answer's `rows` and `deleted`, looked up by id
-- with tombstones, so a deleted link still names its directory), its owner, the users whose
-- confirmed address has a live membership in it, and those whose membership the push itself
-- touched (a removed member pulls to purge). Only user ids, never data. Rows of the user's own
-- tables (profile, events, votes) and public polls concern the pusher only; others see a public
-- poll at their next poll. Service role only: the local stack calls it after the push committed.
create or replace function private.sync_poke_targets(p_user uuid, p_answer jsonb)
returns setof uuid
language sql stable security definer
set search_path = ''
as $$
  with applied as (
    select r
    from jsonb_array_elements(
      case when jsonb_typeof(p_answer -> 'results') = 'array' then p_answer -> 'results' else '[]'::jsonb end) r
    where r ->> 'status' = 'applied'
  ),
  touched as (
    select t.key as tbl, (e.value ->> 'id')::uuid as id
    from applied a
    cross join lateral jsonb_each(case when jsonb_typeof(a.r -> 'rows') = 'object' then a.r -> 'rows' else '{}'::jsonb end) t
    cross join lateral jsonb_array_elements(case when jsonb_typeof(t.value) = 'array' then t.value else '[]'::jsonb end) e
    union
    select t.key, (e.value #>> '{}')::uuid
    from applied a
    cross join lateral jsonb_each(case when jsonb_typeof(a.r -> 'deleted') = 'object' then a.r -> 'deleted' else '{}'::jsonb end) t
    cross join lateral jsonb_array_elements(case when jsonb_typeof(t.value) = 'array' then t.value else '[]'::jsonb end) e
  ),
  touched_members as (
    select m.directory_id, lower(m.user_email) as email
    from public.directory_members m join touched on touched.tbl = 'directory_members' and touched.id = m.id
  ),
  dirs as (
    select d.id from public.link_directories d join touched on touched.tbl = 'link_directories' and touched.id = d.id
    union
    select l.directory_id from public.saved_links l join touched on touched.tbl = 'saved_links' and touched.id = l.id
    union
    select p.directory_id from public.voting_posts p join touched on touched.tbl = 'voting_posts' and touched.id = p.id
    where p.directory_id is not null
    union
    select directory_id from touched_members
  ),
  emails as (
    select lower(m.user_email) as email
    from public.directory_members m join dirs on dirs.id = m.directory_id
    where m.deleted_at is null
    union
    select email from touched_members
  )
  select p_user where p_user is not null and exists (select 1 from applied)
  union
  select d.owner_id from public.link_directories d join dirs on dirs.id = d.id
  union
  select u.id from auth.users u join emails e on lower(u.email) = e.email where u.email_confirmed_at is not null
$$;
revoke all on function private.sync_poke_targets(p_user uuid, p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_targets(p_user uuid, p_answer jsonb) to service_role;
