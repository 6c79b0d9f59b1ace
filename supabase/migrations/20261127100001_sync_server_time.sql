-- Written by `npm run db:diff` from supabase/schemas: function public.sync_pull, function public.sync_push.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_pull.sql
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

  -- Each table's visibility is the registry's (src/data/synced-tables.ts), generated into sync_registry.sql.
  v_page := private.sync_pull_page(uid, v_email, v_view, v_since, v_fresh, v_after_txid, v_after_tbl, v_after_id, v_limit);
  v_more := (v_page -> 'more')::boolean;
  v_last := v_page -> 'last';
  v_changes := v_page -> 'changes';

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
    'purge', jsonb_build_object('directory_ids', to_jsonb(v_purge)),
    -- The server's clock as the answer leaves (epoch ms): a device whose clock is off learns the
    -- offset, so its quotas, deadlines, 'today' and reminders follow the server's time.
    'server_time_ms', floor(extract(epoch from clock_timestamp()) * 1000)::bigint);
end
$$;
revoke all on function public.sync_pull(p_cursor text, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function public.sync_pull(p_cursor text, p_limit integer) to authenticated, service_role;

-- supabase/schemas/sync_push.sql

create or replace function public.sync_push(p_mutations jsonb) returns jsonb
language plpgsql
set search_path = ''
as $$
declare
  item jsonb;
  -- Appended in place (an expanded array) and turned into JSON once: concatenating a growing
  -- jsonb per mutation copied the answer so far every time.
  results jsonb[] := '{}';
  v_id uuid;
  v_answer jsonb;
begin
  if auth.uid() is null then
    raise exception 'Not authenticated' using errcode = '42501';
  end if;
  if jsonb_typeof(p_mutations) is distinct from 'array' then
    raise exception 'p_mutations must be an array of mutations.' using errcode = '22023';
  end if;
  if jsonb_array_length(p_mutations) > 500 then
    -- Refused whole, before anything is applied: the client sends at most 500 per push.
    raise sqlstate 'PT413' using message = 'Too many changes in one push: at most 500.',
      hint = 'Send the changes in smaller batches.';
  end if;

  perform private.sync_purge_my_answers();

  for item in select value from jsonb_array_elements(p_mutations) loop
    v_id := null;
    if jsonb_typeof(item) = 'object' and jsonb_typeof(item -> 'id') = 'string'
       and (item ->> 'id') ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      v_id := (item ->> 'id')::uuid;
    end if;
    if v_id is null or jsonb_typeof(item -> 'name') is distinct from 'string' then
      -- Not a mutation at all: answered, but not recorded (there is no id to record it under).
      results := array_append(results, jsonb_build_object(
        'id', case when jsonb_typeof(item) = 'object' and jsonb_typeof(item -> 'id') in ('string', 'number')
                     and octet_length(item ->> 'id') <= 100 then item -> 'id' end,
        'status', 'rejected', 'code', 'invalid', 'message', 'Invalid mutation.',
        'rows', '{}'::jsonb, 'deleted', '{}'::jsonb));
      continue;
    end if;
    results := array_append(results, private.sync_push_one(v_id, item ->> 'name', coalesce(item -> 'args', '{}')));
  end loop;
  v_answer := jsonb_build_object('results', to_jsonb(results));
  -- The devices its applied changes concern pull now (Realtime, delivered once this commits).
  perform private.sync_poke_send(v_answer);
  -- The server's clock as the answer leaves (epoch ms), as sync_pull's.
  return v_answer || jsonb_build_object('server_time_ms', floor(extract(epoch from clock_timestamp()) * 1000)::bigint);
end
$$;
revoke all on function public.sync_push(p_mutations jsonb) from public, anon, authenticated, service_role;
grant execute on function public.sync_push(p_mutations jsonb) to authenticated, service_role;
