/**
 * `npm run db:registry`: writes supabase/schemas/sync_registry.sql from the client's registry of
 * synced tables (src/data/synced-tables.ts) and its mutation contract
 * (src/domain/mutation-contract.ts), so the server's list of synced tables, what sync_pull reads
 * of each (its visibility), how sync_push reads back the rows a mutation touched (sync_canonical)
 * and the list of mutation names sync_push accepts are generated, never kept by hand. `-- --check` exits 1
 * when the file is not what the registry says (tests/db/sync-registry.test.ts runs the same
 * check). After a change, run `npm run db:diff` to write the migration.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syncedTableNames, syncedTables, type Visibility } from '../../src/data/synced-tables.ts';
import { mutationNames } from '../../src/domain/mutation-contract.ts';
import { ident, visibilityConditions, walkSql } from './sync-pull-walk.ts';

export const REGISTRY_SQL = join(fileURLToPath(new URL('../schemas/', import.meta.url)), 'sync_registry.sql');

export interface RegisteredTable {
  name: string;
  visibleTo: Readonly<Visibility>;
}

/** The registry's tables, in its order. */
export function registeredTables(): RegisteredTable[] {
  return syncedTableNames.map((name) => ({ name, visibleTo: syncedTables[name].visibleTo }));
}

/** The contract's mutation names, in its order. */
export function registeredMutations(): string[] {
  return [...mutationNames];
}

const mutationName = /^[a-z_]+\.[a-z_]+$/;

function mutation(name: string): string {
  if (!mutationName.test(name)) throw new Error(`Not a mutation name (family.action): ${name}`);
  return name;
}

/** One branch of the page's union: the keys (txid, tbl, id) and filter columns (deleted_at, dir) of the rows the caller may see. */
function branch({ name, visibleTo }: RegisteredTable, first: boolean): string {
  const table = ident(name);
  const conditions = visibilityConditions({ name, visibleTo });
  // The first branch names the union's columns.
  const as = (alias: string) => (first ? ` as ${alias}` : '');
  const tbl = first ? `'${table}'::text collate "C" as tbl` : `'${table}'`;
  const column = visibleTo.directory ? `t.${visibleTo.directory}` : 'null::uuid';
  const dir = `${column}${as('dir')}`;
  const where = `where ${conditions.join(' or ')}`;
  if (visibleTo.ownerTier) {
    if (!visibleTo.directory) throw new Error(`${name}: ownerTier needs a directory column`);
    return `      select greatest(t.txid, o.owner_txid)${as('txid')}, ${tbl}, t.id, t.deleted_at, ${dir}
      from public.${table} t
      left join private.sync_directory_owners(p_view) o on o.directory_id = ${column}
      ${where}`;
  }
  return `      select t.txid, ${tbl}, t.id, t.deleted_at, ${dir}
      from public.${table} t
      ${where}`;
}

/**
 * The page's rows of one table (its ids in v_ids, in the page's key order), as JSON text in that
 * order. Each read by its key (a lateral subquery kept apart by `offset 0`): with `t.id = any
 * (v_ids)` the planner chose a sequential scan of the whole table for a page of a few thousand ids,
 * every user's rows read for each page. And JSON text, as the walk's (sync-pull-walk.ts): `jsonb`
 * rows were parsed again into the page's object, and again into the answer (docs/scale.md, point 7).
 */
function rowsOf({ name, visibleTo }: RegisteredTable): string {
  const table = ident(name);
  const byKey = `from unnest(v_ids) with ordinality k(id, n)
        cross join lateral (select * from public.${table} t where t.id = k.id offset 0) t`;
  if (visibleTo.ownerTier) {
    const column = `t.${ident(visibleTo.directory ?? '')}`;
    return `      when '${table}' then
        select coalesce(json_agg(r order by k.n), '[]') into v_rows
        ${byKey}
        left join private.sync_directory_owners(p_view) o on o.directory_id = ${column}
        cross join lateral (select t.*, o.owner_tier) r;`;
  }
  return `      when '${table}' then
        select coalesce(json_agg(t order by k.n), '[]') into v_rows
        ${byKey};`;
}

/** The live rows of one table that a mutation touched, read back for its answer (by `id = $1` when one). */
function canonicalOf({ name, visibleTo }: RegisteredTable, one: boolean): string {
  const table = ident(name);
  const where = one ? 't.id = ids[1]' : 't.id = any (ids)';
  const row = visibleTo.ownerTier ? "to_jsonb(t) || jsonb_build_object('owner_tier', o.owner_tier)" : 'to_jsonb(t)';
  const join = visibleTo.ownerTier
    ? `
          left join private.sync_directory_owners(ids) o on o.directory_id = t.${ident(visibleTo.directory ?? '')}`
    : '';
  if (one) {
    return `        when '${table}' then
          select ${row} into found_row
          from public.${table} t${join}
          where ${where} and t.deleted_at is null;`;
  }
  return `        when '${table}' then
          select coalesce(jsonb_agg(${row} order by t.id), '[]'), coalesce(array_agg(t.id), '{}')
          into found_rows, found_ids
          from public.${table} t${join}
          where ${where} and t.deleted_at is null;`;
}

/** sync_canonical: a static query per table (below), so PL/pgSQL keeps each plan for the session. */
function canonicalSql(tables: readonly RegisteredTable[]): string {
  const single = tables.map((table) => canonicalOf(table, true)).join('\n');
  const many = tables.map((table) => canonicalOf(table, false)).join('\n');
  return `create or replace function private.sync_canonical(p_touched jsonb) returns jsonb
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
${single}
      end case;
      rows_out := rows_out || jsonb_build_object(tbl, case when found_row is null then '[]'::jsonb
                                                           else jsonb_build_array(found_row) end);
      deleted_out := deleted_out || jsonb_build_object(tbl, case when found_row is null then to_jsonb(ids)
                                                                 else '[]'::jsonb end);
      continue;
    end if;
    case tbl
${many}
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
`;
}

/** A function of no arguments answering a constant list of text (`items`: its quoted elements, one a line). */
function listFunction(name: string, items: string): string {
  return `create or replace function private.${name}() returns text[]
language sql immutable
set search_path = ''
as $$
  select array[
${items}
  ]
$$;
revoke all on function private.${name}() from public, anon, authenticated, service_role;
grant execute on function private.${name}() to authenticated, service_role;
`;
}

/** The schema file's text for these tables and mutation names. */
export function registrySql(tables: readonly RegisteredTable[], mutations: readonly string[]): string {
  const list = tables.map(({ name }) => `    '${ident(name)}'`).join(',\n');
  const names = mutations.map((name) => `    '${mutation(name)}'`).join(',\n');
  const union = tables.map((table, i) => branch(table, i === 0)).join('\n      union all\n');
  const fetch = tables.map(rowsOf).join('\n');
  const args = `p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[],
  p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer,
  out changes json, out more boolean, out last text[]`;
  const signature = `p_uid uuid, p_email text, p_view uuid[], p_since xid8, p_fresh uuid[], p_after_txid xid8, p_after_tbl text, p_after_id uuid, p_limit integer`;
  return `-- Generated by \`npm run db:registry\` from src/data/synced-tables.ts and
-- src/domain/mutation-contract.ts: do not edit by hand.
--
-- The mutation names sync_push accepts (it refuses any other with 'Unknown mutation.'), in the
-- contract's order.

${listFunction('sync_mutation_names', names)}
-- The tables sync_pull and sync_push answer with, in the registry's order (parents first).

${listFunction('sync_synced_tables', list)}
-- One page of a pull: the rows the caller may see (each table's visibleTo), changed since p_since
-- (or live, on a first pull, or in a newly visible directory), after the last key of the previous
-- page, the first p_limit in (txid, table, id) order. Answers changes ({table: rows} with every
-- table, as JSON text, each table's rows in (txid, id) order), more (whether a row follows) and
-- last (the page's last key, [txid, table, id], or null). The keys are sorted first and only the
-- rows kept are read and turned into JSON; stable, so every read sees the snapshot of the pull.
create or replace function private.sync_pull_page(${args})
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
${union}
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
${fetch}
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
revoke all on function private.sync_pull_page(${signature}) from public, anon, authenticated, service_role;
grant execute on function private.sync_pull_page(${signature}) to authenticated, service_role;

${walkSql(tables)}
-- {table: [ids]} → {rows: {table: [live rows visible to the caller]}, deleted: {table: [the other ids]}}:
-- how sync_push answers with the rows a mutation touched. It runs after every mutation, so each
-- table has static queries whose plans PL/pgSQL keeps for the session (a dynamic EXECUTE would be
-- planned for every mutation), and the usual single row is read by \`id = $1\`: the plan of
-- \`id = any ($1)\` is made again for every call, or, generic, can scan the table. Tables are read
-- as the caller, so RLS decides what is visible; a directory carries its owner's tier.
${canonicalSql(tables)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const wanted = registrySql(registeredTables(), registeredMutations());
  const current = (() => {
    try {
      return readFileSync(REGISTRY_SQL, 'utf8');
    } catch {
      return '';
    }
  })();
  if (process.argv.includes('--check')) {
    if (current !== wanted) {
      console.error(
        `${REGISTRY_SQL} is not what src/data/synced-tables.ts and src/domain/mutation-contract.ts say: run npm run db:registry`,
      );
      process.exit(1);
    }
    console.log('The server registry matches the client registry.');
  } else if (current === wanted) {
    console.log('Unchanged.');
  } else {
    writeFileSync(REGISTRY_SQL, wanted);
    console.log(`Wrote ${REGISTRY_SQL}; now run npm run db:diff to write the migration.`);
  }
}
