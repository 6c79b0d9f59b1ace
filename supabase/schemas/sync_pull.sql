-- Sync pull: changes since a cursor, for what the caller may see.
--
-- The current definitions (docs/architecture.md, "Rules written once"): edit here, then run
-- `npm run db:diff` to write the migration. Tables, columns and data changes stay in migrations.

create or replace function private.sync_pull_cursor(p_cursor jsonb) returns text
language sql immutable
set search_path = ''
as $$
  select replace(replace(encode(convert_to(p_cursor::text, 'UTF8'), 'base64'), E'\n', ''), E'\r', '')
$$;
revoke all on function private.sync_pull_cursor(p_cursor jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_pull_cursor(p_cursor jsonb) to authenticated, service_role;

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
