-- Written by `npm run db:diff` from supabase/schemas: function private.sync_scratch_page.
-- Review it, then commit it with the schema change.

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
      where t.directory_id = any (array(select x from unnest(p_view) x where x >= v_dir)) and t.deleted_at is null
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
