/**
 * What the schema tools compare: every function of schemas public and private (definition and
 * privileges), every trigger, row-level-security policy and view, as text, keyed by object.
 * Also writes each object's definition back as SQL from the catalog, for objects whose
 * migration text cannot be reused.
 */
import type { Sql } from '../local/db.ts';

export const SCHEMAS = ['public', 'private'];

export interface CatalogEntry {
  /** `function s.name(args)`, `trigger s.table.name`, `policy s.table.name`, `view s.name`. */
  key: string;
  /** The group the schema files declare it under (functions without their arguments). */
  object: string;
  /** What is compared. */
  text: string;
  /** The object as SQL that recreates it, from the catalog. */
  sql: string;
  /** Grants and revokes that give it its privileges (functions), from the catalog. */
  grants: string;
  /** How to drop it. */
  drop: string;
}

export type Catalog = Map<string, CatalogEntry>;

const API_ROLES = ['public', 'anon', 'authenticated', 'service_role'];

export async function snapshot(db: Sql): Promise<Catalog> {
  const catalog: Catalog = new Map();
  const { rows: functions } = await db.query<{
    schema: string;
    name: string;
    args: string;
    def: string;
    grantees: string[] | null;
  }>(
    `select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as args,
            pg_get_functiondef(p.oid) as def,
            array(select case when a.grantee = 0 then 'public' else a.grantee::regrole::text end || ':' || a.privilege_type
                  from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
                  where a.grantee <> p.proowner
                  order by 1) as grantees
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = any ($1) and p.prokind in ('f', 'p')
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
     order by 1, 2, 3`,
    [SCHEMAS],
  );
  for (const f of functions) {
    const signature = `${f.schema}.${f.name}(${f.args})`;
    const grantees = (f.grantees ?? []).map((g) => g.split(':')[0]!);
    const grants = [`revoke all on function ${signature} from ${API_ROLES.join(', ')};`];
    if (grantees.length > 0) grants.push(`grant execute on function ${signature} to ${grantees.join(', ')};`);
    catalog.set(`function ${signature}`, {
      key: `function ${signature}`,
      object: `function ${f.schema}.${f.name}`,
      text: `${f.def.trim()}\n-- execute: ${(f.grantees ?? []).join(', ')}`,
      sql: `${f.def.trim()};`,
      grants: grants.join('\n'),
      drop: `drop function ${signature};`,
    });
  }

  const { rows: triggers } = await db.query<{
    schema: string;
    tbl: string;
    name: string;
    def: string;
    enabled: string;
    is_constraint: boolean;
  }>(
    `select n.nspname as schema, c.relname as tbl, t.tgname as name, pg_get_triggerdef(t.oid) as def,
            t.tgenabled::text as enabled, t.tgconstraint <> 0 as is_constraint
     from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     join pg_proc p on p.oid = t.tgfoid join pg_namespace pn on pn.oid = p.pronamespace
     where not t.tgisinternal and (n.nspname = any ($1) or pn.nspname = any ($1))
     order by 1, 2, 3`,
    [SCHEMAS],
  );
  for (const t of triggers) {
    const key = `trigger ${t.schema}.${t.tbl}.${t.name}`;
    const on = `${quoteIdent(t.schema)}.${quoteIdent(t.tbl)}`;
    const sql = t.is_constraint
      ? `drop trigger if exists ${quoteIdent(t.name)} on ${on};\n${t.def};`
      : `${t.def.replace(/^CREATE TRIGGER/, 'create or replace trigger')};`;
    catalog.set(key, {
      key,
      object: key,
      text: `${t.def}\n-- enabled: ${t.enabled}`,
      sql,
      grants: '',
      drop: `drop trigger if exists ${quoteIdent(t.name)} on ${on};`,
    });
  }

  const { rows: policies } = await db.query<{
    schema: string;
    tbl: string;
    name: string;
    permissive: string;
    roles: string[];
    cmd: string;
    qual: string | null;
    with_check: string | null;
  }>(
    `select schemaname as schema, tablename as tbl, policyname as name, permissive, roles::text[] as roles, cmd,
            qual, with_check
     from pg_policies where schemaname = any ($1) or schemaname in ('auth', 'realtime') order by 1, 2, 3`,
    [SCHEMAS],
  );
  for (const p of policies) {
    const key = `policy ${p.schema}.${p.tbl}.${p.name}`;
    const on = `${quoteIdent(p.schema)}.${quoteIdent(p.tbl)}`;
    const create = [
      `create policy ${quoteIdent(p.name)} on ${on}`,
      `  as ${p.permissive.toLowerCase()} for ${p.cmd.toLowerCase()} to ${p.roles.join(', ')}`,
      ...(p.qual !== null ? [`  using (${p.qual})`] : []),
      ...(p.with_check !== null ? [`  with check (${p.with_check})`] : []),
    ].join('\n');
    const drop = `drop policy if exists ${quoteIdent(p.name)} on ${on};`;
    catalog.set(key, {
      key,
      object: key,
      text: JSON.stringify(p),
      sql: `${drop}\n${create};`,
      grants: '',
      drop,
    });
  }

  const { rows: views } = await db.query<{ schema: string; name: string; def: string; options: string[] | null }>(
    `select n.nspname as schema, c.relname as name, pg_get_viewdef(c.oid) as def, c.reloptions as options
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'v' and n.nspname = any ($1) order by 1, 2`,
    [SCHEMAS],
  );
  for (const v of views) {
    const key = `view ${v.schema}.${v.name}`;
    const options = v.options?.length ? ` with (${v.options.join(', ')})` : '';
    catalog.set(key, {
      key,
      object: key,
      text: `${v.def}\n-- options: ${(v.options ?? []).join(', ')}`,
      sql: `create or replace view ${quoteIdent(v.schema)}.${quoteIdent(v.name)}${options} as\n${v.def.trim().replace(/;$/, '')};`,
      grants: '',
      drop: `drop view ${quoteIdent(v.schema)}.${quoteIdent(v.name)};`,
    });
  }
  return catalog;
}

export function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

export interface CatalogDiff {
  /** Keys whose text differs, or that exist on one side only. */
  changed: string[];
  added: string[];
  removed: string[];
}

export function compareCatalogs(before: Catalog, after: Catalog): CatalogDiff {
  const changed: string[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  for (const [key, entry] of after) {
    const old = before.get(key);
    if (!old) added.push(key);
    else if (old.text !== entry.text) changed.push(key);
  }
  for (const key of before.keys()) if (!after.has(key)) removed.push(key);
  return { changed, added, removed };
}
