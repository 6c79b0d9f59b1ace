-- Written by `npm run db:diff` from supabase/schemas: function private.longest_item, function private.sync_canonical, function private.sync_pull_page, function private.sync_recorded_answer, function public.can_edit_directory, function public.is_directory_member, function public.is_directory_owner, function public.saved_links_rules, function public.sync_pull, function public.sync_push, function public.viewable_directory_ids.
-- Review it, then commit it with the schema change.

-- supabase/schemas/rls.sql
-- Owner, or live editor (by confirmed e-mail), of a live directory. PL/pgSQL rather than SQL: the
-- row-level security of every link write calls it, and a PL/pgSQL function keeps its plans for
-- the session where an SQL function that cannot be inlined (security definer) is planned again
-- by every statement that calls it.
create or replace function public.can_edit_directory(dir uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.link_directories d
    where d.id = dir and d.deleted_at is null and (
      d.owner_id = auth.uid() or exists (
        select 1 from public.directory_members m
        where m.directory_id = d.id and m.deleted_at is null and m.role = 'editor'
          and m.user_email = (select private.confirmed_email())
      )
    )
  );
end
$$;
revoke all on function public.can_edit_directory(dir uuid) from public, anon, authenticated, service_role;
grant execute on function public.can_edit_directory(dir uuid) to authenticated, service_role;

-- A live membership of the caller's confirmed e-mail (any role).
create or replace function public.is_directory_member(dir uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.directory_members m
    where m.directory_id = dir and m.deleted_at is null and m.user_email = (select private.confirmed_email())
  );
end
$$;
revoke all on function public.is_directory_member(dir uuid) from public, anon, authenticated, service_role;
grant execute on function public.is_directory_member(dir uuid) to authenticated, service_role;

create or replace function public.is_directory_owner(dir uuid) returns boolean
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.link_directories d where d.id = dir and d.owner_id = auth.uid());
end
$$;
revoke all on function public.is_directory_owner(dir uuid) from public, anon, authenticated, service_role;
grant execute on function public.is_directory_owner(dir uuid) to authenticated, service_role;

-- Every directory the caller owns or is a live member of by confirmed e-mail (PL/pgSQL: the
-- read policies call it once per statement, and its plan is kept for the session).
create or replace function public.viewable_directory_ids() returns setof uuid
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return query
    select d.id from public.link_directories d where d.owner_id = auth.uid()
    union
    select m.directory_id from public.directory_members m
    where m.deleted_at is null and m.user_email = (select private.confirmed_email());
end
$$;
revoke all on function public.viewable_directory_ids() from public, anon, authenticated, service_role;
grant execute on function public.viewable_directory_ids() to authenticated, service_role;

-- supabase/schemas/rules.sql

-- The longest item of a text list, and of a poll's option texts (0 when empty). Used by CHECK
-- constraints, which run as the writing role.
create or replace function private.longest_item(p_items text[]) returns integer
language plpgsql immutable
set search_path = ''
as $$
declare
  x text;
  longest integer := 0;
begin
  -- A loop, not a query: the constraint runs it for every written row.
  foreach x in array coalesce(p_items, '{}') loop
    longest := greatest(longest, char_length(x));
  end loop;
  return longest;
end
$$;
revoke all on function private.longest_item(p_items text[]) from public, anon, authenticated, service_role;
grant execute on function private.longest_item(p_items text[]) to authenticated, service_role;

create or replace function public.saved_links_rules() returns trigger
language plpgsql security definer
set search_path = ''
as $$
declare
  dir record;
  tier text;
begin
  -- The directory and its owner's plan (public.tier_of's answer) in one read.
  select d.owner_id, d.deleted_at, coalesce(p.subscription_tier, 'free') as tier into dir
  from public.link_directories d left join public.user_profiles p on p.id = d.owner_id
  where d.id = new.directory_id;
  if not found and tg_op = 'UPDATE' and new.directory_id = old.directory_id then
    -- An account's cascade: its directory is already deleted and this row is next.
    return new;
  end if;
  if not found or (dir.deleted_at is not null and new.deleted_at is null) then
    raise exception 'Directory not found.' using errcode = 'P0002', hint = 'not_found';
  end if;
  new.owner_id := dir.owner_id;
  if tg_op = 'INSERT' then
    new.created_by := coalesce(auth.uid(), new.created_by);
  end if;
  new.url := btrim(new.url);
  if new.url !~* '^https?://[^[:space:]]+$' then
    raise exception 'Only http and https links can be saved.' using errcode = '22023', hint = 'invalid';
  end if;
  new.title := btrim(new.title);
  new.tags := coalesce((
    select array_agg(t order by first_pos)
    from (select btrim(x) as t, min(pos) as first_pos
          from unnest(coalesce(new.tags, '{}'::text[])) with ordinality as u(x, pos)
          where btrim(x) <> '' group by btrim(x)) tags
  ), '{}');
  if exists (select 1 from unnest(new.tags) t where char_length(t) > 50) then
    raise exception 'Tags can be at most 50 characters.' using errcode = '22023', hint = 'invalid';
  end if;
  new.is_favorite := coalesce(new.is_favorite, false);

  tier := dir.tier;
  if tier = 'free' then
    if cardinality(new.tags) > 0 and (tg_op = 'INSERT' or new.tags is distinct from old.tags) then
      raise exception 'Upgrade to Pro to use tags.' using errcode = 'P0001', hint = 'limit_reached';
    end if;
    if new.is_favorite and (tg_op = 'INSERT' or not old.is_favorite) then
      raise exception 'Upgrade to Pro to use favourites.' using errcode = 'P0001', hint = 'limit_reached';
    end if;
    if new.deleted_at is null
       and (tg_op = 'INSERT' or old.deleted_at is not null or old.owner_id <> new.owner_id) then
      perform public.lock_account(new.owner_id);
      if (select count(*) from public.saved_links l
          where l.owner_id = new.owner_id and l.deleted_at is null and l.id <> new.id) >= 30 then
        raise exception 'Upgrade to Pro to save more links.' using errcode = 'P0001', hint = 'limit_reached';
      end if;
    end if;
  end if;
  return new;
end
$$;
revoke all on function public.saved_links_rules() from public, anon, authenticated, service_role;
grant execute on function public.saved_links_rules() to service_role;

-- supabase/schemas/sync_helpers.sql

-- {table: [ids]} → {rows: {table: [live rows visible to the caller]}, deleted: {table: [the other ids]}}.
-- It runs after every mutation, so its reads are static queries whose plans PL/pgSQL keeps for the
-- session (a dynamic EXECUTE was planned for every mutation; a table without a query of its own
-- here is still read that way), and the usual single row is read by `id = $1`: the plan of
-- `id = any ($1)` is made again for every call, or, generic, can scan the table.
create or replace function private.sync_canonical(p_touched jsonb) returns jsonb
language plpgsql stable
set search_path = ''
as $$
declare
  tbl text;
  ids uuid[];
  found_row jsonb;
  found_rows jsonb;
  found_ids uuid[];
  rows_out jsonb := '{}';
  deleted_out jsonb := '{}';
begin
  for tbl, ids in
    select t.key, array(select distinct (x #>> '{}')::uuid from jsonb_array_elements(t.value) x
                        where jsonb_typeof(x) = 'string'
                          and x #>> '{}' ~* '^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$')
    from jsonb_each(coalesce(p_touched, '{}')) t
    where t.key = any (private.sync_synced_tables()) and jsonb_typeof(t.value) = 'array'
  loop
    if cardinality(ids) = 1 then
      found_row := null;
      case tbl
        when 'link_directories' then
          select to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier) into found_row
          from public.link_directories t
          left join private.sync_directory_owners(ids) o on o.directory_id = t.id
          where t.id = ids[1] and t.deleted_at is null;
        when 'user_profiles' then
          select to_jsonb(t) into found_row from public.user_profiles t where t.id = ids[1] and t.deleted_at is null;
        when 'saved_links' then
          select to_jsonb(t) into found_row from public.saved_links t where t.id = ids[1] and t.deleted_at is null;
        when 'directory_members' then
          select to_jsonb(t) into found_row from public.directory_members t where t.id = ids[1] and t.deleted_at is null;
        when 'calendar_events' then
          select to_jsonb(t) into found_row from public.calendar_events t where t.id = ids[1] and t.deleted_at is null;
        when 'voting_posts' then
          select to_jsonb(t) into found_row from public.voting_posts t where t.id = ids[1] and t.deleted_at is null;
        when 'user_votes' then
          select to_jsonb(t) into found_row from public.user_votes t where t.id = ids[1] and t.deleted_at is null;
        else
          execute format('select to_jsonb(t) from public.%I t where t.id = $1 and t.deleted_at is null', tbl)
            into found_row using ids[1];
      end case;
      rows_out := rows_out || jsonb_build_object(tbl, case when found_row is null then '[]'::jsonb
                                                           else jsonb_build_array(found_row) end);
      deleted_out := deleted_out || jsonb_build_object(tbl, case when found_row is null then to_jsonb(ids)
                                                                 else '[]'::jsonb end);
      continue;
    end if;
    case tbl
      when 'link_directories' then
        select coalesce(jsonb_agg(to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier) order by t.id), '[]'),
               coalesce(array_agg(t.id), '{}')
        into found_rows, found_ids
        from public.link_directories t
        left join private.sync_directory_owners(ids) o on o.directory_id = t.id
        where t.id = any (ids) and t.deleted_at is null;
      when 'user_profiles' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
        into found_rows, found_ids
        from public.user_profiles t where t.id = any (ids) and t.deleted_at is null;
      when 'saved_links' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
        into found_rows, found_ids
        from public.saved_links t where t.id = any (ids) and t.deleted_at is null;
      when 'directory_members' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
        into found_rows, found_ids
        from public.directory_members t where t.id = any (ids) and t.deleted_at is null;
      when 'calendar_events' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
        into found_rows, found_ids
        from public.calendar_events t where t.id = any (ids) and t.deleted_at is null;
      when 'voting_posts' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
        into found_rows, found_ids
        from public.voting_posts t where t.id = any (ids) and t.deleted_at is null;
      when 'user_votes' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
        into found_rows, found_ids
        from public.user_votes t where t.id = any (ids) and t.deleted_at is null;
      else
        execute format('select coalesce(jsonb_agg(to_jsonb(t) order by t.id), ''[]''), coalesce(array_agg(t.id), ''{}'')
                          from public.%I t where t.id = any ($1) and t.deleted_at is null', tbl)
          into found_rows, found_ids using ids;
    end case;
    rows_out := rows_out || jsonb_build_object(tbl, found_rows);
    deleted_out := deleted_out || jsonb_build_object(tbl, coalesce((
      select jsonb_agg(gone.id order by gone.id)
      from unnest(ids) gone(id)
      where not gone.id = any (found_ids)
    ), '[]'));
  end loop;
  return jsonb_build_object('rows', rows_out, 'deleted', deleted_out);
end
$$;
revoke all on function private.sync_canonical(p_touched jsonb) from public, anon, authenticated, service_role;
grant execute on function private.sync_canonical(p_touched jsonb) to authenticated, service_role;

-- The recorded answer of the caller's mutation, or null (PL/pgSQL: asked once per mutation, its
-- plan is kept for the session).
create or replace function private.sync_recorded_answer(p_mutation_id uuid) returns jsonb
language plpgsql stable security definer
set search_path = ''
as $$
begin
  return (select m.result from public.sync_mutations m
          where m.user_id = auth.uid() and m.mutation_id = p_mutation_id);
end
$$;
revoke all on function private.sync_recorded_answer(p_mutation_id uuid) from public, anon, authenticated, service_role;
grant execute on function private.sync_recorded_answer(p_mutation_id uuid) to authenticated, service_role;

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
    'purge', jsonb_build_object('directory_ids', to_jsonb(v_purge)));
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
  return jsonb_build_object('results', to_jsonb(results));
end
$$;
revoke all on function public.sync_push(p_mutations jsonb) from public, anon, authenticated, service_role;
grant execute on function public.sync_push(p_mutations jsonb) to authenticated, service_role;

-- supabase/schemas/sync_registry.sql

-- One page of a pull: the rows the caller may see (each table's visibleTo), changed since p_since
-- (or live, on a first pull, or in a newly visible directory), after the last key of the previous
-- page, the first p_limit in (txid, table, id) order. Answers {changes: {table: rows}} with every
-- table, each table's rows in (txid, id) order, more (whether a row follows) and last (the page's
-- last key, [txid, table, id], or null). The keys are sorted first and only the rows kept are read
-- and turned into JSON; stable, so every read sees the snapshot of the pull.
create or replace function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[],
  p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) returns jsonb
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
  v_rows jsonb;
  v_names text[] := '{}';
  v_lists jsonb[] := '{}';
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
    ) a
    where ((p_since is null and a.deleted_at is null)
           or a.txid >= p_since
           or (a.dir = any (p_fresh) and a.deleted_at is null))
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
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.user_profiles t where t.id = any (v_ids);
      when 'link_directories' then
        select coalesce(jsonb_agg(to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier)
                                  order by greatest(t.txid, o.owner_txid), t.id), '[]') into v_rows
        from public.link_directories t
        left join private.sync_directory_owners(p_view) o on o.directory_id = t.id
        where t.id = any (v_ids);
      when 'saved_links' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.saved_links t where t.id = any (v_ids);
      when 'directory_members' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.directory_members t where t.id = any (v_ids);
      when 'calendar_events' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.calendar_events t where t.id = any (v_ids);
      when 'voting_posts' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.voting_posts t where t.id = any (v_ids);
      when 'user_votes' then
        select coalesce(jsonb_agg(to_jsonb(t) order by t.txid, t.id), '[]') into v_rows
        from public.user_votes t where t.id = any (v_ids);
    end case;
    v_names := array_append(v_names, v_table);
    v_lists := array_append(v_lists, v_rows);
  end loop;
  -- Every table, with its rows or none, in one object built once (each step of building a JSON
  -- value copies what it holds).
  return jsonb_build_object(
    'changes', (select jsonb_object_agg(x.name, coalesce(y.list, '[]'::jsonb))
                from unnest(private.sync_synced_tables()) x(name)
                left join unnest(v_names, v_lists) y(name, list) on y.name = x.name),
    'more', v_more,
    'last', case when v_n > 0 then jsonb_build_array(v_txids[v_n]::text, v_tbls[v_n], v_keys[v_n]) end);
end
$$;
revoke all on function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) from public, anon, authenticated, service_role;
grant execute on function private.sync_pull_page(p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer) to authenticated, service_role;
