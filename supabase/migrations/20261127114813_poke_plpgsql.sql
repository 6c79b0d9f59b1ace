-- Written by `npm run db:diff` from supabase/schemas: function private.sync_poke_targets, function private.sync_poke_topics.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_poke.sql
-- The users a committed sync_push answer concerns: the pusher when anything applied, and for
-- every directory an applied mutation touched (looked up by id with tombstones, so a deleted link
-- still names its directory), its owner, the users whose confirmed address has a live membership
-- in it, those whose membership the push itself touched (a removed member pulls to purge), and
-- the invitees of a time poll it touched (a pick's invitations). Only user ids, never data. Rows
-- of the user's own tables (profile, events, votes) concern the pusher only; a public poll
-- concerns whoever has the voting board open (sync_poke_topics).
-- PL/pgSQL, as sync_poke_topics: every push calls them, and a security definer SQL function is
-- planned again on each call (its plan is not kept); PL/pgSQL keeps it for the session (a fourth
-- of the cost per call under the load run). Service role only.
create or replace function private.sync_poke_targets(p_user uuid, p_answer jsonb)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
  with touched as (
    select * from private.sync_poke_touched(p_answer)
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
    select a.directory_id from public.slot_answers a join touched on touched.tbl = 'slot_answers' and touched.id = a.id
    where a.directory_id is not null
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
  select p_user
  where p_user is not null and jsonb_typeof(p_answer -> 'results') = 'array'
    and p_answer -> 'results' @> '[{"status": "applied"}]'
  union
  select d.owner_id from public.link_directories d join dirs on dirs.id = d.id
  union
  -- A time poll's pick reaches the people it offered the time (their invitations, and accepted
  -- events that moved).
  select i.user_id from public.event_invitations i join touched on touched.tbl = 'voting_posts' and touched.id = i.post_id
  where i.deleted_at is null
  union
  select u.id from auth.users u join emails e on lower(u.email) = e.email where u.email_confirmed_at is not null;
end
$$;
revoke all on function private.sync_poke_targets(p_user uuid, p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_targets(p_user uuid, p_answer jsonb) to service_role;

-- The topics a committed sync_push answer pokes, as Realtime names them: 'user:<id>' for every
-- user sync_poke_targets names, and 'public:voting' (the public voting board, listened on while
-- it is shown) when an applied mutation touched a public poll: created, changed or deleted
-- (tombstones included), or voted on (its counts changed). A poke carries no data: a listener
-- pulls through sync_pull, under RLS. Service role only; sync_poke_send sends them.
create or replace function private.sync_poke_topics(p_user uuid, p_answer jsonb)
returns setof text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
  with touched as (
    select * from private.sync_poke_touched(p_answer) where tbl in ('voting_posts', 'user_votes')
  )
  select 'user:' || t::text from private.sync_poke_targets(p_user, p_answer) t
  union all
  select 'public:voting'
  where exists (
    select 1 from touched join public.voting_posts p on touched.tbl = 'voting_posts' and p.id = touched.id
    where p.directory_id is null
    union all
    select 1 from touched
    join public.user_votes v on touched.tbl = 'user_votes' and v.id = touched.id
    join public.voting_posts p on p.id = v.post_id
    where p.directory_id is null
  );
end
$$;
revoke all on function private.sync_poke_topics(p_user uuid, p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_topics(p_user uuid, p_answer jsonb) to service_role;
