/** Helpers for the sync_push / sync_pull tests: call the RPCs as an actor, build mutations. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../supabase/local/db.ts';
import { as, insertRow, type Actor } from '../support/db.ts';
import { syncedTableNames } from '../../src/data/rows.ts';

export type Row = Record<string, unknown> & { id: string };

export interface MutationResult {
  id: string;
  status: 'applied' | 'rejected';
  code?: string;
  message?: string;
  rows: Record<string, Row[]>;
  deleted: Record<string, string[]>;
}

export interface PullAnswer {
  cursor: string;
  more: boolean;
  reset: boolean;
  changes: Record<string, Row[]>;
  purge: { directory_ids: string[] };
}

export const uuid = () => randomUUID();

export function mutation(name: string, args: Record<string, unknown>, id = uuid()) {
  return { id, name, args };
}

export async function pushRaw(db: Db, actor: Actor, mutations: unknown): Promise<MutationResult[]> {
  const rows = await as(db, actor, (sql) =>
    sql.query<{ r: { results: MutationResult[] } }>('select public.sync_push($1::jsonb) as r', [
      JSON.stringify(mutations),
    ]),
  );
  return rows.rows[0]!.r.results;
}

export async function push(db: Db, actor: Actor, ...mutations: unknown[]): Promise<MutationResult[]> {
  return pushRaw(db, actor, mutations);
}

/**
 * Waits until every transaction that began before this call has ended, in the whole cluster. A
 * pull's cursor stops before the oldest transaction still open (sync_pull delivers at least once),
 * and on PostgreSQL the test files running beside this one, on their own databases of the same
 * server, open transactions all the time: without this, a pull could bring this file's rows again
 * because of another file's transaction, and a test of what the cursor leaves behind would fail by
 * chance. Waits for the state, polling it; on PGlite (one connection) it holds at once.
 */
export async function settled(db: Db): Promise<void> {
  const { rows } = await db.query<{ now: string }>('select pg_current_xact_id()::text as now');
  const now = rows[0]!.now;
  for (;;) {
    const { rows: ended } = await db.query<{ ok: boolean }>(
      'select pg_snapshot_xmin(pg_current_snapshot()) > $1::xid8 as ok',
      [now],
    );
    if (ended[0]?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * sync_pull as `actor`. It first waits for the cluster's earlier transactions to end (settled),
 * unless `settle` is false: a test that holds a transaction open itself while it pulls.
 */
export async function pull(
  db: Db,
  actor: Actor,
  cursor: string | null = null,
  limit = 1000,
  { settle = true }: { settle?: boolean } = {},
): Promise<PullAnswer> {
  if (settle) await settled(db);
  const { rows } = await as(db, actor, (sql) =>
    sql.query<{ r: PullAnswer }>('select public.sync_pull($1, $2) as r', [cursor, limit]),
  );
  return rows[0]!.r;
}

/** Pulls every page; returns the pages and the final cursor. */
export async function pullAll(db: Db, actor: Actor, cursor: string | null = null, limit = 1000) {
  const pages: PullAnswer[] = [];
  let next = cursor;
  for (let i = 0; i < 1000; i++) {
    const page = await pull(db, actor, next, limit);
    pages.push(page);
    next = page.cursor;
    if (!page.more) return { pages, cursor: next, last: page };
  }
  throw new Error('pull did not terminate');
}

/** The rows of every page, per table, in the order pulled. */
export function changesOf(pages: PullAnswer[]): Record<string, Row[]> {
  const rows: Record<string, Row[]> = {};
  for (const page of pages) {
    for (const [table, list] of Object.entries(page.changes)) (rows[table] ??= []).push(...list);
  }
  return rows;
}

/** Ids per table across pages (each id once). */
export function idsOf(pages: PullAnswer[], table: string): string[] {
  return [...new Set(pages.flatMap((page) => (page.changes[table] ?? []).map((row) => row.id)))].sort();
}

export async function count(db: Db, table: string, where = 'true', params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from public.${table} where ${where}`,
    params,
  );
  return rows[0]!.n;
}

/** A directory owned by owner, made directly (test setup, as the superuser). */
export async function makeDirectory(db: Db, owner: { id: string }, name = 'Dir'): Promise<Row> {
  return insertRow<Row>(db, 'link_directories', { id: uuid(), name, owner_id: owner.id });
}

export async function makeLinks(db: Db, directoryId: string, n: number): Promise<void> {
  await db.query(
    `insert into public.saved_links (directory_id, url, title)
     select $1, 'https://example.com/' || g, 'Link ' || g from generate_series(1, $2::int) g`,
    [directoryId, n],
  );
}

/** Every table a write could reach: the synced tables and the server-only ones. */
export const WRITABLE_TABLES: readonly string[] = [...syncedTableNames, 'directory_secrets', 'contact_messages'];

/** A checksum per table of every row (as the superuser): equal snapshots mean nothing was written. */
export async function snapshot(db: Db): Promise<Record<string, string>> {
  const { rows } = await db.query<{ tbl: string; sum: string }>(
    WRITABLE_TABLES.map(
      (table) =>
        `select '${table}' as tbl, coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as sum from public.${table} t`,
    ).join(' union all '),
  );
  return Object.fromEntries(rows.map((row) => [row.tbl, row.sum]));
}
