-- Written by `npm run db:diff` from supabase/schemas: function public.sync_pull, function private.sync_pull_page.
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
    select p.changes, p.more, case when p.more then p.last end into v_changes, v_more, v_last
    from private.sync_pull_page(uid, v_email, v_view, v_since, v_fresh, v_after_txid, v_after_tbl, v_after_id, v_limit) p;
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

-- One page of a pull: the rows the caller may see (each table's visibleTo), changed since p_since
-- (or live, on a first pull, or in a newly visible directory), after the last key of the previous
-- page, the first p_limit in (txid, table, id) order. Answers changes ({table: rows} with every
-- table, as JSON text, each table's rows in (txid, id) order), more (whether a row follows) and
-- last (the page's last key, [txid, table, id], or null). The keys are sorted first and only the
-- rows kept are read and turned into JSON; stable, so every read sees the snapshot of the pull.
create or replace function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[],
  p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer,
  out changes json, out more boolean, out last text[])
language plpgsql stable
set search_path = ''
as $$
declare
  v_tbls text[];
  v_keys uuid[];
  v_txids xid8[];
  v_n integer;
  v_more boolean;
  v_table text;
  v_ids uuid[];
  v_rows json;
  v_names text[] := '{}';
  v_lists json[] := '{}';
begin
  select coalesce(array_agg(k.tbl order by k.txid, k.tbl, k.id), '{}'),
         coalesce(array_agg(k.id order by k.txid, k.tbl, k.id), '{}'),
         coalesce(array_agg(k.txid order by k.txid, k.tbl, k.id), '{}')
  into v_tbls, v_keys, v_txids
  from (
    select a.txid, a.tbl, a.id
    from (
      select t.txid, 'user_profiles'::text collate "C" as tbl, t.id, t.deleted_at, null::uuid as dir
      from public.user_profiles t
      where t.id = p_uid
      union all
      select greatest(t.txid, o.owner_txid), 'link_directories', t.id, t.deleted_at, t.id
      from public.link_directories t
      left join private.sync_directory_owners(p_view) o on o.directory_id = t.id
      where t.id = any (p_view)
      union all
      select t.txid, 'saved_links', t.id, t.deleted_at, t.directory_id
      from public.saved_links t
      where t.directory_id = any (p_view)
      union all
      select t.txid, 'directory_members', t.id, t.deleted_at, t.directory_id
      from public.directory_members t
      where t.directory_id = any (p_view) or t.user_email = p_email
      union all
      select t.txid, 'calendar_events', t.id, t.deleted_at, null::uuid
      from public.calendar_events t
      where t.owner_id = p_uid
      union all
      select t.txid, 'voting_posts', t.id, t.deleted_at, t.directory_id
      from public.voting_posts t
      where t.directory_id = any (p_view) or t.directory_id is null
      union all
      select t.txid, 'user_votes', t.id, t.deleted_at, null::uuid
      from public.user_votes t
      where t.user_id = p_uid
      union all
      select t.txid, 'slot_answers', t.id, t.deleted_at, t.directory_id
      from public.slot_answers t
      where t.user_id = p_uid or t.directory_id = any (p_view)
      union all
      select t.txid, 'event_invitations', t.id, t.deleted_at, null::uuid
      from public.event_invitations t
      where t.user_id = p_uid
    ) a
    where ((p_since is null and a.deleted_at is null)
           or a.txid >= p_since
           -- cardinality first: an empty p_fresh then folds the branch away in the call's plan (a.dir
           -- = any ('{}') is not folded, and with it the plan read every live row the caller may see).
           or (cardinality(p_fresh) > 0 and a.dir = any (p_fresh) and a.deleted_at is null))
      and (p_after_txid is null or (a.txid, a.tbl, a.id) > (p_after_txid, p_after_tbl, p_after_id))
    order by a.txid, a.tbl, a.id
    limit p_limit + 1
  ) k;
  v_n := cardinality(v_keys);
  v_more := v_n > p_limit;
  if v_more then
    v_n := p_limit;
    v_tbls := v_tbls[1:v_n];
    v_keys := v_keys[1:v_n];
  end if;
  for v_table in select distinct x from unnest(v_tbls) x loop
    v_ids := array(select k.id from unnest(v_tbls, v_keys) k(tbl, id) where k.tbl = v_table);
    case v_table
      when 'user_profiles' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.user_profiles t where t.id = k.id offset 0) t;
      when 'link_directories' then
        select coalesce(json_agg(r order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.link_directories t where t.id = k.id offset 0) t
        left join private.sync_directory_owners(p_view) o on o.directory_id = t.id
        cross join lateral (select t.*, o.owner_tier) r;
      when 'saved_links' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.saved_links t where t.id = k.id offset 0) t;
      when 'directory_members' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.directory_members t where t.id = k.id offset 0) t;
      when 'calendar_events' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.calendar_events t where t.id = k.id offset 0) t;
      when 'voting_posts' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.voting_posts t where t.id = k.id offset 0) t;
      when 'user_votes' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.user_votes t where t.id = k.id offset 0) t;
      when 'slot_answers' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.slot_answers t where t.id = k.id offset 0) t;
      when 'event_invitations' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.event_invitations t where t.id = k.id offset 0) t;
    end case;
    v_names := array_append(v_names, v_table);
    v_lists := array_append(v_lists, v_rows);
  end loop;
  -- Every table, with its rows or none, in one object built once (JSON text: the lists are
  -- joined, not parsed again).
  changes := (select json_object_agg(x.name, coalesce(y.list, '[]'::json))
              from unnest(private.sync_synced_tables()) x(name)
              left join unnest(v_names, v_lists) y(name, list) on y.name = x.name);
  more := v_more;
  last := case when v_n > 0 then array[v_txids[v_n]::text, v_tbls[v_n], v_keys[v_n]::text] end;
end
$$;
revoke all on function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) to authenticated, service_role;
