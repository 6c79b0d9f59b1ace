/**
 * The generated `private.sync_scratch_page` (supabase/schemas/sync_registry.sql, written by
 * `npm run db:registry`): one page of a pull from scratch. It walks the live rows the caller may
 * see table by table in the registry's order (parents first), each table in its walk order, from
 * the previous page's last key, so every table's part of a page is one index range read and a
 * page costs its own rows, not the account's (docs/scale.md, "Where a first sync's time goes").
 * Each table's rows are made JSON text (`json_agg`), never `jsonb`.
 */
import type { Visibility } from '../../src/data/synced-tables.ts';

export interface WalkedTable {
  name: string;
  visibleTo: Readonly<Visibility>;
}

const identifier = /^[a-z_][a-z0-9_]*$/;

/** A plain SQL identifier as it is, or an error: the registry's names are written into SQL unquoted. */
export function ident(name: string): string {
  if (!identifier.test(name)) throw new Error(`Not a plain SQL identifier: ${name}`);
  return name;
}

/**
 * The column a table is walked by before its id: its directory when that alone makes a row
 * visible (links: an index on (directory_id, id) serves `directory_id = any (view)` in this
 * order), else none (the table is walked by id: the user's own rows, or a few shared ones).
 */
export function walkColumn({ visibleTo }: WalkedTable): string | null {
  const { directory, own, email, publicWhenNull } = visibleTo;
  if (!directory || directory === 'id' || own || email || publicWhenNull) return null;
  return ident(directory);
}

/** The conditions, any of which makes a row of `table` (alias `t`) visible to the caller (p_uid, p_view, p_email). */
export function visibilityConditions({ name, visibleTo }: WalkedTable): string[] {
  const conditions: string[] = [];
  if (visibleTo.own) conditions.push(`t.${ident(visibleTo.own)} = p_uid`);
  if (visibleTo.directory) conditions.push(`t.${ident(visibleTo.directory)} = any (p_view)`);
  if (visibleTo.email) conditions.push(`t.${ident(visibleTo.email)} = p_email`);
  if (visibleTo.publicWhenNull) conditions.push(`t.${ident(visibleTo.publicWhenNull)} is null`);
  if (conditions.length === 0) throw new Error(`${name} declares no visibility`);
  return conditions;
}

function conditionsOf(table: WalkedTable): string {
  const conditions = visibilityConditions(table);
  return conditions.length === 1 ? conditions[0]! : `(${conditions.join(' or ')})`;
}

/**
 * A table walked by its directory is read from the visible directories at or after the last
 * page's: with every visible directory in the array, PostgreSQL 15 walks the index entries of the
 * directories before it again on every page, and a page cost the position it starts at (2.4 s for
 * the tenth page of 100,000 links: docs/sync-protocol.md, docs/scale.md "Everything synced").
 */
function walkedCondition(by: string): string {
  return `t.${by} = any (array(select x from unnest(p_view) x where x >= v_dir))`;
}

/** One table's step of the walk (its place in the registry is `at`, from 1). */
function stepOf(table: WalkedTable, at: number): string {
  const name = ident(table.name);
  const by = walkColumn(table);
  const order = by ? `t.${by}, t.id` : 't.id';
  const bound = by ? `(t.${by}, t.id) >= (v_dir, v_id)` : 't.id >= v_id';
  const dir = by ? `t.${by}` : 'null::uuid';
  // A directory carries its owner's plan: the row is made with it as one more column.
  const row = table.visibleTo.ownerTier ? 'r' : 't';
  const from = table.visibleTo.ownerTier
    ? `public.${name} t
        left join private.sync_directory_owners(p_view) o on o.directory_id = t.${ident(table.visibleTo.directory ?? '')}
        cross join lateral (select t.*, o.owner_tier) r`
    : `public.${name} t`;
  return `  if not v_more and v_at <= ${at} then
    if v_at < ${at} then
      v_dir := v_nil;
      v_id := v_nil;
      v_skip := null;
    end if;
    select count(*)::integer, json_agg(k.r order by k.n) filter (where k.n <= v_room),
           (array_agg(k.dir order by k.n))[least(count(*)::integer, v_room)],
           (array_agg(k.id order by k.n))[least(count(*)::integer, v_room)]
    into v_n, v_rows, v_last_dir, v_last_id
    from (
      select ${row} as r, ${dir} as dir, t.id, row_number() over (order by ${order}) as n
      from ${from}
      where ${by ? walkedCondition(by) : conditionsOf(table)} and t.deleted_at is null
        and ${bound} and t.id is distinct from v_skip
      order by ${order}
      limit v_room + 1
    ) k;
    if least(v_n, v_room) > 0 then
      v_names := array_append(v_names, '${name}');
      v_lists := array_append(v_lists, v_rows);
      v_last := array['${name}', v_last_dir::text, v_last_id::text];
    end if;
    v_more := v_n > v_room;
    v_room := greatest(v_room - v_n, 0);
  end if;`;
}

/** The function's text for these tables (in the registry's order). */
export function walkSql(tables: readonly WalkedTable[]): string {
  const steps = tables.map((table, i) => stepOf(table, i + 1)).join('\n');
  const args = `p_uid uuid, p_email text, p_view uuid[], p_after_tbl text, p_after_dir uuid, p_after_id uuid,
  p_limit integer, out changes json, out more boolean, out last text[]`;
  const signature = `p_uid uuid, p_email text, p_view uuid[], p_after_tbl text, p_after_dir uuid, p_after_id uuid, p_limit integer`;
  return `-- One page of a pull from scratch: the live rows the caller may see (each table's visibleTo),
-- table by table in the registry's order, each table by its walk key ((directory, id) for a
-- table seen through its directory alone, else id), the first p_limit after the previous page's
-- last key ([table, directory or null, id], p_after_*; none on the first page). Each table's part
-- is one index range read, so a page costs its own rows. Answers changes ({table: rows} with every
-- table, as JSON text), more (whether a row follows) and last (the page's last key, or null).
-- Rows changed while the pages stream are sent by the pull after them (the cursor's floor).
create or replace function private.sync_scratch_page(${args})
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
${steps}
  changes := (select json_object_agg(x.name, coalesce(y.list, '[]'::json))
              from unnest(private.sync_synced_tables()) x(name)
              left join unnest(v_names, v_lists) y(name, list) on y.name = x.name);
  more := v_more;
  last := v_last;
end
$$;
revoke all on function private.sync_scratch_page(${signature}) from public, anon, authenticated, service_role;
grant execute on function private.sync_scratch_page(${signature}) to authenticated, service_role;
`;
}
