-- sync_pull
--   - binds memberships to the caller's confirmed e-mail (private.confirmed_email()), never the
--     JWT's claim: an unconfirmed account sees no shared directory; once the address is confirmed
--     the next pull brings the directory whole (it is "fresh"); after an e-mail change the old
--     address's directories come back in purge.directory_ids;
--   - sends link_directories rows with the owner's plan as `owner_tier` (a member's device shows
--     the owner's badge and limits), and re-sends a directory when its owner's profile changes
--     (its effective txid is the greater of the directory's and the owner profile's, so the
--     snapshot cursor's guarantees hold for a plan change as for any write);
--   - calls its helpers in schema private.
-- Otherwise unchanged (..._sync_pull.sql, whose header describes the cursor).

create or replace function private.sync_pull_cursor(p_cursor jsonb) returns text
language sql immutable
set search_path = ''
as $$
  select replace(replace(encode(convert_to(p_cursor::text, 'UTF8'), 'base64'), E'\n', ''), E'\r', '')
$$;

create or replace function public.sync_pull(p_cursor text default null, p_limit integer default 1000) returns jsonb
language plpgsql volatile
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
  v_email text := private.confirmed_email();
  v_limit integer := least(greatest(coalesce(p_limit, 1000), 1), 5000);
  v_snap pg_snapshot := pg_current_snapshot();
  c jsonb;
  v_reset boolean := false;
  v_paging boolean := false;
  v_since xid8;
  v_dirs uuid[];
  v_view uuid[];
  v_fresh uuid[] := '{}';
  v_purge uuid[] := '{}';
  v_floor xid8;
  v_after_txid xid8;
  v_after_tbl text;
  v_after_id uuid;
  v_page jsonb;
  v_more boolean := false;
  v_last jsonb;
  v_changes jsonb;
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
        v_after_txid := (c #>> '{page,after,0}')::xid8;
        v_after_tbl := c #>> '{page,after,1}';
        v_after_id := (c #>> '{page,after,2}')::uuid;
        v_fresh := array(select x::uuid from jsonb_array_elements_text(coalesce(c #> '{page,fresh}', '[]')) x);
        if v_floor is null or v_after_txid is null or v_after_tbl is null or v_after_id is null then
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
      v_since := null;
      v_dirs := null;
      v_floor := null;
      v_after_txid := null;
      v_after_tbl := null;
      v_after_id := null;
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

  select coalesce(jsonb_agg(jsonb_build_array(p.txid::text, p.tbl, p.id, p.r) order by p.txid, p.tbl, p.id), '[]')
  into v_page
  from (
    select a.txid, a.tbl, a.id, a.r
    from (
      select t.txid, 'calendar_events'::text collate "C" as tbl, t.id, t.deleted_at, null::uuid as dir, to_jsonb(t) as r
      from public.calendar_events t where t.owner_id = uid
      union all
      select t.txid, 'directory_members', t.id, t.deleted_at, t.directory_id, to_jsonb(t)
      from public.directory_members t where t.directory_id = any (v_view) or t.user_email = v_email
      union all
      -- Re-sent when the owner's profile changes too (their plan: owner_tier).
      select greatest(t.txid, o.owner_txid), 'link_directories', t.id, t.deleted_at, t.id,
             to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier)
      from public.link_directories t
      left join private.sync_directory_owners(v_view) o on o.directory_id = t.id
      where t.id = any (v_view)
      union all
      select t.txid, 'saved_links', t.id, t.deleted_at, t.directory_id, to_jsonb(t)
      from public.saved_links t where t.directory_id = any (v_view)
      union all
      select t.txid, 'user_profiles', t.id, t.deleted_at, null, to_jsonb(t)
      from public.user_profiles t where t.id = uid
      union all
      select t.txid, 'user_votes', t.id, t.deleted_at, null, to_jsonb(t)
      from public.user_votes t where t.user_id = uid
      union all
      select t.txid, 'voting_posts', t.id, t.deleted_at, t.directory_id, to_jsonb(t)
      from public.voting_posts t
      where t.directory_id is null or t.created_by_id = uid or t.directory_id = any (v_view)
    ) a
    where ((v_since is null and a.deleted_at is null)
           or a.txid >= v_since
           or (a.dir = any (v_fresh) and a.deleted_at is null))
      and (v_after_txid is null or (a.txid, a.tbl, a.id) > (v_after_txid, v_after_tbl, v_after_id))
    order by a.txid, a.tbl, a.id
    limit v_limit + 1
  ) p;

  if jsonb_array_length(v_page) > v_limit then
    v_more := true;
    v_page := v_page - v_limit;
  end if;
  v_last := v_page -> (jsonb_array_length(v_page) - 1);

  select (select jsonb_object_agg(t, '[]'::jsonb) from unnest(private.sync_synced_tables()) t)
         || coalesce(jsonb_object_agg(g.tbl, g.rows), '{}')
  into v_changes
  from (select x.e ->> 1 as tbl, jsonb_agg(x.e -> 3 order by x.n) as rows
        from jsonb_array_elements(v_page) with ordinality x(e, n) group by x.e ->> 1) g;

  if v_more then
    v_next := jsonb_build_object('v', 1, 'u', uid, 'since', v_since::text, 'dirs', to_jsonb(v_dirs),
      'page', jsonb_build_object('floor', v_floor::text,
                                 'after', jsonb_build_array(v_last -> 0, v_last -> 1, v_last -> 2),
                                 'fresh', to_jsonb(v_fresh)));
  else
    v_next := jsonb_build_object('v', 1, 'u', uid, 'since', v_floor::text, 'dirs', to_jsonb(v_dirs));
  end if;

  return jsonb_build_object(
    'cursor', private.sync_pull_cursor(v_next),
    'more', v_more,
    'reset', v_reset,
    'changes', v_changes,
    'purge', jsonb_build_object('directory_ids', to_jsonb(v_purge)));
end
$$;

revoke all on function private.sync_pull_cursor(jsonb) from public, anon, authenticated;
grant execute on function private.sync_pull_cursor(jsonb) to authenticated, service_role;
revoke all on function public.sync_pull(text, integer) from public, anon;
grant execute on function public.sync_pull(text, integer) to authenticated, service_role;
