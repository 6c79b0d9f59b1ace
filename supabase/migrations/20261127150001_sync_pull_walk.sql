-- Written by `npm run db:diff` from supabase/schemas: function private.sync_scratch_page, function public.sync_pull.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_pull.sql
create or replace function public.sync_pull(p_cursor text default null, p_limit integer default 1000) returns json
language plpgsql volatile
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  v_email text := private.confirmed_email();
  -- Up to 10,000 rows a page; a pull after a cursor asks 5,000 (docs/sync-protocol.md, Pull).
  v_limit integer := least(greatest(coalesce(p_limit, 1000), 1), 10000);
  v_snap pg_snapshot := pg_current_snapshot();
  c jsonb;
  v_reset boolean := false;
  v_paging boolean := false;
  -- A pull from scratch walks the tables (private.sync_scratch_page); its cursor's page holds
  -- `walk`, the last key sent. A pull after a cursor (and a page cursor holding `after`, from
  -- before the walk) reads the changes in txid order (private.sync_pull_page).
  v_walk boolean := false;
  v_since xid8;
  v_dirs uuid[];
  v_view uuid[];
  v_fresh uuid[] := '{}';
  v_purge uuid[] := '{}';
  v_floor xid8;
  v_after_txid xid8;
  v_after_tbl text;
  v_after_id uuid;
  v_after_dir uuid;
  v_page jsonb;
  v_more boolean := false;
  v_last text[];
  v_changes json;
  v_next jsonb;
begin
  if uid is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;

  if p_cursor is not null then
    begin
      c := convert_from(decode(p_cursor, 'base64'), 'UTF8')::jsonb;
      if c ->> 'v' is distinct from '1' or c ->> 'u' is distinct from uid::text
         or jsonb_typeof(c -> 'dirs') is distinct from 'array' then
        raise exception 'unknown cursor' using errcode = '22023';
      end if;
      v_since := (c ->> 'since')::xid8;
      v_dirs := array(select x::uuid from jsonb_array_elements_text(c -> 'dirs') x);
      v_paging := jsonb_typeof(c -> 'page') = 'object';
      if v_paging then
        v_floor := (c #>> '{page,floor}')::xid8;
        v_walk := jsonb_typeof(c #> '{page,walk}') = 'array';
        if v_walk then
          v_after_tbl := c #>> '{page,walk,0}';
          v_after_dir := (c #>> '{page,walk,1}')::uuid;
          v_after_id := (c #>> '{page,walk,2}')::uuid;
          if v_since is not null or not v_after_tbl = any (private.sync_synced_tables()) then
            raise exception 'unknown cursor' using errcode = '22023';
          end if;
        else
          v_after_txid := (c #>> '{page,after,0}')::xid8;
          v_after_tbl := c #>> '{page,after,1}';
          v_after_id := (c #>> '{page,after,2}')::uuid;
          v_fresh := array(select x::uuid from jsonb_array_elements_text(coalesce(c #> '{page,fresh}', '[]')) x);
          if v_after_txid is null then
            raise exception 'unknown cursor' using errcode = '22023';
          end if;
        end if;
        if v_floor is null or v_after_tbl is null or v_after_id is null then
          raise exception 'unknown cursor' using errcode = '22023';
        end if;
      elsif v_since is null then
        raise exception 'unknown cursor' using errcode = '22023';
      end if;
      -- A cursor from the future (another database, a restore) is unknown.
      if v_since > pg_snapshot_xmax(v_snap) or v_floor > pg_snapshot_xmax(v_snap) then
        raise exception 'unknown cursor' using errcode = '22023';
      end if;
    exception when others then
      v_reset := true;
      v_paging := false;
      v_walk := false;
      v_since := null;
      v_dirs := null;
      v_floor := null;
      v_after_txid := null;
      v_after_tbl := null;
      v_after_id := null;
      v_after_dir := null;
      v_fresh := '{}';
    end;
  end if;

  -- Directories the caller owns (tombstones too, so the owner gets them) or is a live member of.
  v_view := array(
    select d.id from public.link_directories d where d.owner_id = uid
    union
    select m.directory_id from public.directory_members m where m.deleted_at is null and m.user_email = v_email);

  if v_paging then
    v_floor := least(v_floor, pg_snapshot_xmin(v_snap));
  else
    -- A pull begins: compare the live visible directories with those of the last pull.
    v_floor := pg_snapshot_xmin(v_snap);
    v_walk := v_since is null;
    if v_since is not null then
      v_fresh := array(select d.id from public.link_directories d
                       where d.id = any (v_view) and d.deleted_at is null and not d.id = any (v_dirs));
      v_purge := array(select x from unnest(v_dirs) x
                       where not exists (select 1 from public.link_directories d
                                         where d.id = x and d.id = any (v_view) and d.deleted_at is null)
                       order by x);
    end if;
    v_dirs := array(select d.id from public.link_directories d
                    where d.id = any (v_view) and d.deleted_at is null order by d.id);
  end if;

  -- Each table's visibility is the registry's (src/data/synced-tables.ts), generated into sync_registry.sql.
  if v_walk then
    select p.changes, p.more, p.last into v_changes, v_more, v_last
    from private.sync_scratch_page(uid, v_email, v_view, v_after_tbl, v_after_dir, v_after_id, v_limit) p;
  else
    v_page := private.sync_pull_page(uid, v_email, v_view, v_since, v_fresh, v_after_txid, v_after_tbl, v_after_id, v_limit);
    v_more := (v_page -> 'more')::boolean;
    v_last := case when v_more then array(select jsonb_array_elements_text(v_page -> 'last')) end;
    v_changes := (v_page -> 'changes')::json;
  end if;

  if not v_more then
    v_next := jsonb_build_object('v', 1, 'u', uid, 'since', v_floor::text, 'dirs', to_jsonb(v_dirs));
  elsif v_walk then
    v_next := jsonb_build_object('v', 1, 'u', uid, 'since', null, 'dirs', to_jsonb(v_dirs),
      'page', jsonb_build_object('floor', v_floor::text, 'walk', to_jsonb(v_last)));
  else
    v_next := jsonb_build_object('v', 1, 'u', uid, 'since', v_since::text, 'dirs', to_jsonb(v_dirs),
      'page', jsonb_build_object('floor', v_floor::text, 'after', to_jsonb(v_last), 'fresh', to_jsonb(v_fresh)));
  end if;

  -- Built as JSON text: the rows are already text, and jsonb would parse them again.
  return json_build_object(
    'cursor', private.sync_pull_cursor(v_next),
    'more', v_more,
    'reset', v_reset,
    'changes', v_changes,
    'purge', json_build_object('directory_ids', to_json(v_purge)),
    -- The server's clock as the answer leaves (epoch ms): a device whose clock is off learns the
    -- offset, so its quotas, deadlines, 'today' and reminders follow the server's time.
    'server_time_ms', floor(extract(epoch from clock_timestamp()) * 1000)::bigint);
end
$$;
revoke all on function public.sync_pull(p_cursor text, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.sync_pull(p_cursor text, p_limit integer) to authenticated, service_role;

-- supabase/schemas/sync_registry.sql

-- One page of a pull from scratch: the live rows the caller may see (each table's visibleTo),
-- table by table in the registry's order, each table by its walk key ((directory, id) for a
-- table seen through its directory alone, else id), the first p_limit after the previous page's
-- last key ([table, directory or null, id], p_after_*; none on the first page). Each table's part
-- is one index range read, so a page costs its own rows. Answers changes ({table: rows} with every
-- table, as JSON text), more (whether a row follows) and last (the page's last key, or null).
-- Rows changed while the pages stream are sent by the pull after them (the cursor's floor).
create or replace function private.sync_scratch_page(p_uid uuid, p_email text, p_view uuid[], p_after_tbl text, p_after_dir uuid, p_after_id uuid,
  p_limit integer, out changes json, out more boolean, out last text[])
language plpgsql stable
set search_path = ''
as $$
declare
  v_nil constant uuid := '00000000-0000-0000-0000-000000000000';
  v_at integer := coalesce(array_position(private.sync_synced_tables(), p_after_tbl), 1);
  v_dir uuid := coalesce(p_after_dir, v_nil);
  v_id uuid := coalesce(p_after_id, v_nil);
  -- The previous page's last row: the walk starts at its key, so it is left out by id.
  v_skip uuid := p_after_id;
  v_room integer := p_limit;
  v_more boolean := false;
  v_n integer;
  v_rows json;
  v_last_dir uuid;
  v_last_id uuid;
  v_last text[];
  v_names text[] := '{}';
  v_lists json[] := '{}';
begin
  if not v_more and v_at <= 1 then
    if v_at < 1 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select t as r, null::uuid as dir, t.id, row_number() over (order by t.id) as n
      from public.user_profiles t
      where t.id = p_uid and t.deleted_at is null
        and t.id >= v_id and t.id is distinct from v_skip
      order by t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'user_profiles');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['user_profiles', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  if not v_more and v_at <= 2 then
    if v_at < 2 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select r as r, null::uuid as dir, t.id, row_number() over (order by t.id) as n
      from public.link_directories t
        left join private.sync_directory_owners(p_view) o on o.directory_id = t.id
        cross join lateral (select t.*, o.owner_tier) r
      where t.id = any (p_view) and t.deleted_at is null
        and t.id >= v_id and t.id is distinct from v_skip
      order by t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'link_directories');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['link_directories', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  if not v_more and v_at <= 3 then
    if v_at < 3 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select t as r, t.directory_id as dir, t.id, row_number() over (order by t.directory_id, t.id) as n
      from public.saved_links t
      where t.directory_id = any (p_view) and t.deleted_at is null
        and (t.directory_id, t.id) >= (v_dir, v_id) and t.id is distinct from v_skip
      order by t.directory_id, t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'saved_links');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['saved_links', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  if not v_more and v_at <= 4 then
    if v_at < 4 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select t as r, null::uuid as dir, t.id, row_number() over (order by t.id) as n
      from public.directory_members t
      where (t.directory_id = any (p_view) or t.user_email = p_email) and t.deleted_at is null
        and t.id >= v_id and t.id is distinct from v_skip
      order by t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'directory_members');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['directory_members', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  if not v_more and v_at <= 5 then
    if v_at < 5 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select t as r, null::uuid as dir, t.id, row_number() over (order by t.id) as n
      from public.calendar_events t
      where t.owner_id = p_uid and t.deleted_at is null
        and t.id >= v_id and t.id is distinct from v_skip
      order by t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'calendar_events');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['calendar_events', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  if not v_more and v_at <= 6 then
    if v_at < 6 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select t as r, null::uuid as dir, t.id, row_number() over (order by t.id) as n
      from public.voting_posts t
      where (t.directory_id = any (p_view) or t.directory_id is null) and t.deleted_at is null
        and t.id >= v_id and t.id is distinct from v_skip
      order by t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'voting_posts');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['voting_posts', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  if not v_more and v_at <= 7 then
    if v_at < 7 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select t as r, null::uuid as dir, t.id, row_number() over (order by t.id) as n
      from public.user_votes t
      where t.user_id = p_uid and t.deleted_at is null
        and t.id >= v_id and t.id is distinct from v_skip
      order by t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'user_votes');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['user_votes', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  if not v_more and v_at <= 8 then
    if v_at < 8 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select t as r, null::uuid as dir, t.id, row_number() over (order by t.id) as n
      from public.slot_answers t
      where (t.user_id = p_uid or t.directory_id = any (p_view)) and t.deleted_at is null
        and t.id >= v_id and t.id is distinct from v_skip
      order by t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'slot_answers');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['slot_answers', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  if not v_more and v_at <= 9 then
    if v_at < 9 then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select t as r, null::uuid as dir, t.id, row_number() over (order by t.id) as n
      from public.event_invitations t
      where t.user_id = p_uid and t.deleted_at is null
        and t.id >= v_id and t.id is distinct from v_skip
      order by t.id
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, 'event_invitations');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['event_invitations', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;
  changes := (select json_object_agg(x.name, coalesce(y.list, '[]'::json))
              from unnest(private.sync_synced_tables()) x(name)
              left join unnest(v_names, v_lists) y(name, list) on y.name = x.name);
  more := v_more;
  last := v_last;
end
$$;
revoke all on function private.sync_scratch_page(p_uid uuid, p_email text, p_view uuid[], p_after_tbl text, p_after_dir uuid, p_after_id uuid, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function private.sync_scratch_page(p_uid uuid, p_email text, p_view uuid[], p_after_tbl text, p_after_dir uuid, p_after_id uuid, p_limit integer) to authenticated, service_role;
