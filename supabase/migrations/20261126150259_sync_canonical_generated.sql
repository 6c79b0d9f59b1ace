-- Written by `npm run db:diff` from supabase/schemas: function private.sync_canonical.
-- Review it, then commit it with the schema change.

-- supabase/schemas/sync_registry.sql
-- {table: [ids]} → {rows: {table: [live rows visible to the caller]}, deleted: {table: [the other ids]}}:
-- how sync_push answers with the rows a mutation touched. It runs after every mutation, so each
-- table has static queries whose plans PL/pgSQL keeps for the session (a dynamic EXECUTE would be
-- planned for every mutation), and the usual single row is read by `id = $1`: the plan of
-- `id = any ($1)` is made again for every call, or, generic, can scan the table. Tables are read
-- as the caller, so RLS decides what is visible; a directory carries its owner's tier.
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
        when 'user_profiles' then
          select to_jsonb(t) into found_row
          from public.user_profiles t
          where t.id = ids[1] and t.deleted_at is null;
        when 'link_directories' then
          select to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier) into found_row
          from public.link_directories t
          left join private.sync_directory_owners(ids) o on o.directory_id = t.id
          where t.id = ids[1] and t.deleted_at is null;
        when 'saved_links' then
          select to_jsonb(t) into found_row
          from public.saved_links t
          where t.id = ids[1] and t.deleted_at is null;
        when 'directory_members' then
          select to_jsonb(t) into found_row
          from public.directory_members t
          where t.id = ids[1] and t.deleted_at is null;
        when 'calendar_events' then
          select to_jsonb(t) into found_row
          from public.calendar_events t
          where t.id = ids[1] and t.deleted_at is null;
        when 'voting_posts' then
          select to_jsonb(t) into found_row
          from public.voting_posts t
          where t.id = ids[1] and t.deleted_at is null;
        when 'user_votes' then
          select to_jsonb(t) into found_row
          from public.user_votes t
          where t.id = ids[1] and t.deleted_at is null;
      end case;
      rows_out := rows_out || jsonb_build_object(tbl, case when found_row is null then '[]'::jsonb
                                                           else jsonb_build_array(found_row) end);
      deleted_out := deleted_out || jsonb_build_object(tbl, case when found_row is null then to_jsonb(ids)
                                                                 else '[]'::jsonb end);
      continue;
    end if;
    case tbl
        when 'user_profiles' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.user_profiles t
          where t.id = any (ids) and t.deleted_at is null;
        when 'link_directories' then
          select coalesce(jsonb_agg(to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.link_directories t
          left join private.sync_directory_owners(ids) o on o.directory_id = t.id
          where t.id = any (ids) and t.deleted_at is null;
        when 'saved_links' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.saved_links t
          where t.id = any (ids) and t.deleted_at is null;
        when 'directory_members' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.directory_members t
          where t.id = any (ids) and t.deleted_at is null;
        when 'calendar_events' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.calendar_events t
          where t.id = any (ids) and t.deleted_at is null;
        when 'voting_posts' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.voting_posts t
          where t.id = any (ids) and t.deleted_at is null;
        when 'user_votes' then
          select coalesce(jsonb_agg(to_jsonb(t) order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.user_votes t
          where t.id = any (ids) and t.deleted_at is null;
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
