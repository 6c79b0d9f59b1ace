-- The poke (docs/sync-protocol.md, "Poke"): a push tells the devices that must pull now, through
-- Supabase Realtime: a broadcast `poke` with no data on private channels, sent in the push's own
-- transaction, so Realtime delivers it only once the push commits.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration.

-- The rows the applied results of a sync_push answer touched: their `rows` and `deleted` ids, by
-- table. A rejected result touched nothing. PL/pgSQL: every push calls it twice, and an SQL
-- function with its own search_path is planned again on every call (1 ms a call under the load run).
create or replace function private.sync_poke_touched(p_answer jsonb)
returns table (tbl text, id uuid)
language plpgsql immutable
set search_path = ''
as $$
begin
  return query
  with applied as (
    select r
    from jsonb_array_elements(
      case when jsonb_typeof(p_answer -> 'results') = 'array' then p_answer -> 'results' else '[]'::jsonb end) r
    where r ->> 'status' = 'applied'
  )
  select t.key, (e.value ->> 'id')::uuid
  from applied a
  cross join lateral jsonb_each(case when jsonb_typeof(a.r -> 'rows') = 'object' then a.r -> 'rows' else '{}'::jsonb end) t
  cross join lateral jsonb_array_elements(case when jsonb_typeof(t.value) = 'array' then t.value else '[]'::jsonb end) e
  union
  select t.key, (e.value #>> '{}')::uuid
  from applied a
  cross join lateral jsonb_each(case when jsonb_typeof(a.r -> 'deleted') = 'object' then a.r -> 'deleted' else '{}'::jsonb end) t
  cross join lateral jsonb_array_elements(case when jsonb_typeof(t.value) = 'array' then t.value else '[]'::jsonb end) e;
end
$$;
revoke all on function private.sync_poke_touched(p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_touched(p_answer jsonb) to service_role;

-- The users a committed sync_push answer concerns, from the rows its applied results touched
-- (sync_poke_touched, given as two arrays of the same length: each row's table and id): the
-- pusher `p_user` (null when nothing applied), and for every directory an applied mutation
-- touched (looked up by id with tombstones, so a deleted link still names its directory), its
-- owner, the users whose confirmed address has a live membership in it, those whose membership
-- the push itself touched (a removed member pulls to purge), and the invitees of a time poll it
-- touched (a pick's invitations). Only user ids, never data. Rows of the user's own tables
-- (profile, events, votes) concern the pusher only; a public poll concerns whoever has the voting
-- board open (sync_poke_topics_of). Takes the rows, not the answer: a push reads its answer's
-- JSON once for both (it was read twice, about half of the poke's time).
-- PL/pgSQL, as the others: every push calls them, and a security definer SQL function is
-- planned again on each call (its plan is not kept); PL/pgSQL keeps it for the session (a fourth
-- of the cost per call under the load run). Service role only.
create or replace function private.sync_poke_targets_of(p_user uuid, p_tbls text[], p_ids uuid[])
returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
  with touched as materialized (
    select t.tbl, t.id from unnest(p_tbls, p_ids) t(tbl, id)
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
  where p_user is not null
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
revoke all on function private.sync_poke_targets_of(p_user uuid, p_tbls text[], p_ids uuid[]) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_targets_of(p_user uuid, p_tbls text[], p_ids uuid[]) to service_role;

-- The topics of those rows, as Realtime names them: 'user:<id>' for every user
-- sync_poke_targets_of names, and 'public:voting' (the public voting board, listened on while it
-- is shown) when an applied mutation touched a public poll: created, changed or deleted
-- (tombstones included), or voted on (its counts changed). A poke carries no data: a listener
-- pulls through sync_pull, under RLS. Service role only.
create or replace function private.sync_poke_topics_of(p_user uuid, p_tbls text[], p_ids uuid[])
returns setof text
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
  with touched as (
    select t.tbl, t.id from unnest(p_tbls, p_ids) t(tbl, id) where t.tbl in ('voting_posts', 'user_votes')
  )
  select 'user:' || t::text from private.sync_poke_targets_of(p_user, p_tbls, p_ids) t
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
revoke all on function private.sync_poke_topics_of(p_user uuid, p_tbls text[], p_ids uuid[]) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_topics_of(p_user uuid, p_tbls text[], p_ids uuid[]) to service_role;

-- The users a committed sync_push answer concerns (sync_poke_targets_of of the rows it touched;
-- `p_user` counts when anything applied). Service role only.
create or replace function private.sync_poke_targets(p_user uuid, p_answer jsonb)
returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_tbls text[];
  v_ids uuid[];
begin
  select array_agg(t.tbl), array_agg(t.id) into v_tbls, v_ids from private.sync_poke_touched(p_answer) t;
  return query select t from private.sync_poke_targets_of(private.sync_poke_pusher(p_user, p_answer), v_tbls, v_ids) t;
end
$$;
revoke all on function private.sync_poke_targets(p_user uuid, p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_targets(p_user uuid, p_answer jsonb) to service_role;

-- The topics a committed sync_push answer pokes (sync_poke_topics_of of the rows it touched), for
-- the server's own writes that poke as a push does (link checks, previews). Service role only;
-- sync_poke_send sends a push's.
create or replace function private.sync_poke_topics(p_user uuid, p_answer jsonb)
returns setof text
language plpgsql stable security definer
set search_path = ''
as $$
declare
  v_tbls text[];
  v_ids uuid[];
begin
  select array_agg(t.tbl), array_agg(t.id) into v_tbls, v_ids from private.sync_poke_touched(p_answer) t;
  return query select t from private.sync_poke_topics_of(private.sync_poke_pusher(p_user, p_answer), v_tbls, v_ids) t;
end
$$;
revoke all on function private.sync_poke_topics(p_user uuid, p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_topics(p_user uuid, p_answer jsonb) to service_role;

-- The pusher, when anything of the answer applied; else null (a rejected push pokes nobody).
create or replace function private.sync_poke_pusher(p_user uuid, p_answer jsonb)
returns uuid
language plpgsql immutable
set search_path = ''
as $$
begin
  if p_user is not null and jsonb_typeof(p_answer -> 'results') = 'array'
     and p_answer -> 'results' @> '[{"status": "applied"}]' then
    return p_user;
  end if;
  return null;
end
$$;
revoke all on function private.sync_poke_pusher(p_user uuid, p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_pusher(p_user uuid, p_answer jsonb) to service_role;

-- Broadcasts `poke` (payload {}: no data) on the private channels of every topic the current
-- user's sync_push answer concerns (only applied results count, so a rejected mutation pokes
-- nobody), the answer's touched rows read once. Called by sync_push before it answers, inside its
-- transaction: a push that fails as a whole sends nothing, and Realtime delivers only what
-- commits. Security definer as hosted Supabase's own examples: clients have no insert policy on
-- realtime.messages.
create or replace function private.sync_poke_send(p_answer jsonb)
returns void
language plpgsql volatile security definer
set search_path = ''
as $$
declare
  v_topic text;
  v_tbls text[];
  v_ids uuid[];
begin
  select array_agg(t.tbl), array_agg(t.id) into v_tbls, v_ids from private.sync_poke_touched(p_answer) t;
  for v_topic in select t from private.sync_poke_topics_of(private.sync_poke_pusher(auth.uid(), p_answer), v_tbls, v_ids) t loop
    perform realtime.send('{}'::jsonb, 'poke', v_topic, true);
  end loop;
end
$$;
revoke all on function private.sync_poke_send(p_answer jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_poke_send(p_answer jsonb) to authenticated, service_role;

-- Who may listen: a signed-in user receives the broadcasts of their own topic `user:<id>` and of
-- the voting board's `public:voting`, nothing else. Realtime runs this policy when a private
-- channel joins (and again on a new access token). No insert policy: no client may send.
drop policy if exists poke_listeners on realtime.messages;
create policy poke_listeners on realtime.messages for select to authenticated
  using (
    realtime.messages.extension = 'broadcast'
    and (realtime.topic() = 'user:' || (select auth.uid())::text or realtime.topic() = 'public:voting')
  );
