/** Writing server rows into the local database (pulled pages and push answers). */
import { dropRows } from '../data/access.ts';
import type { LinkboardDb } from '../data/db.ts';
import { loadedMutatorOf } from '../data/mutator-registry.ts';
import {
  checkRows,
  childrenOf,
  isSyncedTableName,
  localFields,
  syncedTableNames,
  type SyncedTableName,
} from '../data/synced-tables.ts';
import { forgetAnchors } from '../data/queries/link-anchors.ts';
import type { Touched } from '../data/targets.ts';
import type { WireRows } from '../backend/sync-transport.ts';

/** Every table a sync write may touch (link_words: a pull from scratch clears it, word-backlog.ts). */
export function syncScope(db: LinkboardDb) {
  return [...syncedTableNames.map((name) => db.table(name)), db.outbox, db.meta, db.counts, db.link_words];
}

/** `tables` and every table whose rows go with theirs (a directory's links, a poll's votes). */
export function withChildren(tables: Iterable<SyncedTableName>): Set<SyncedTableName> {
  const out = new Set<SyncedTableName>();
  const visit = (name: SyncedTableName) => {
    if (out.has(name)) return;
    out.add(name);
    for (const child of childrenOf(name)) visit(child.table);
  };
  for (const name of tables) visit(name);
  return out;
}

/**
 * Thrown inside a sync transaction opened over fewer tables than a queued mutation's rebase
 * needs (it was queued after the scope was chosen): the transaction is aborted, nothing is
 * written, and the caller runs it again over every table.
 */
export class ScopeTooNarrow extends Error {
  constructor(readonly table: string) {
    super(`The sync transaction does not include ${table}.`);
    this.name = 'ScopeTooNarrow';
  }
}

/** A check for rebase: every table of `mutation` is in `scope` (or throws ScopeTooNarrow). */
export function requireScope(scope: ReadonlySet<string> | undefined, name: string): void {
  if (!scope) return;
  for (const table of loadedMutatorOf(name as never).tables) if (!scope.has(table)) throw new ScopeTooNarrow(table);
}

/**
 * Checks every row of `changes` against its table's declaration before anything is written
 * (an InvalidRowError names the table and field). Tables the client does not know are ignored.
 */
export function checkWireRows(changes: WireRows | undefined): void {
  for (const [name, rows] of Object.entries(changes ?? {})) {
    if (isSyncedTableName(name) && rows) checkRows(name, rows);
  }
}

type Row = Record<string, unknown>;
/** The server's last word on a row: its live version, or its tombstone (`dead`). */
interface Change {
  row: Row | null;
  dead: boolean;
}

/**
 * Server rows from one page or several push results, merged in order (the last word on a row
 * wins), then written in one go: bulk reads and writes per table rather than one per row.
 */
export class RowChanges {
  private readonly byTable = new Map<SyncedTableName, Map<string, Change>>();

  private of(name: SyncedTableName): Map<string, Change> {
    let rows = this.byTable.get(name);
    if (!rows) this.byTable.set(name, (rows = new Map()));
    return rows;
  }

  /** Live rows and tombstones (rows with `deleted_at`), checked first. */
  addRows(changes: WireRows | undefined): void {
    checkWireRows(changes);
    for (const [name, rows] of Object.entries(changes ?? {})) {
      if (!isSyncedTableName(name) || !rows || rows.length === 0) continue;
      const table = this.of(name);
      for (const row of rows) table.set(String(row.id), { row, dead: row.deleted_at != null });
    }
  }

  /** Ids deleted outright (a push answer's `deleted`). */
  addDeleted(deleted: Partial<Record<string, string[]>> | undefined): void {
    for (const [name, ids] of Object.entries(deleted ?? {})) {
      if (!isSyncedTableName(name) || !ids || ids.length === 0) continue;
      const table = this.of(name);
      for (const id of ids) table.set(id, { row: null, dead: true });
    }
  }

  get size(): number {
    let n = 0;
    for (const rows of this.byTable.values()) n += rows.size;
    return n;
  }

  /** The tables written, with those whose rows a deletion takes along. */
  tables(): Set<SyncedTableName> {
    const written = [...this.byTable].filter(([, rows]) => rows.size > 0).map(([name]) => name);
    return withChildren(written);
  }

  /**
   * Puts live rows and deletes tombstoned ones (a deleted row takes what goes with it, a
   * directory its content), in the tables' declared order, noting what changed in `touched`.
   * With `skipUnchanged`, a row the device already holds exactly as sent (an own change coming
   * back, a page after a push) is not written again, so nothing on screen wakes for it, and a
   * deletion of a row the device does not hold is not made.
   */
  async write(db: LinkboardDb, touched: Touched, options: { skipUnchanged: boolean }): Promise<void> {
    for (const name of syncedTableNames) {
      const rows = this.byTable.get(name);
      if (!rows || rows.size === 0) continue;
      let changes = [...rows];
      if (options.skipUnchanged) {
        const local = localFields(name);
        const held = await db.table(name).bulkGet(changes.map(([id]) => id));
        changes = changes.filter(([, change], i) =>
          change.dead ? held[i] !== undefined : !sameRow(held[i] as Row | undefined, change.row as Row, local),
        );
      }
      const live: Row[] = [];
      const dead: string[] = [];
      for (const [id, change] of changes) {
        if (change.row) touched.noteRow(name, change.row);
        else touched.noteId(name, id);
        if (change.dead) dead.push(id);
        else live.push(change.row as Row);
      }
      if (live.length > 0) await db.table(name).bulkPut(live);
      await dropRows(db, name, dead, touched);
    }
  }
}

/**
 * Whether the stored row holds exactly the server's fields (a local-only field makes it differ),
 * besides the `local` keys derived from them (synced-tables.ts), which the same fields give again.
 */
export function sameRow(held: Row | undefined, sent: Row, local: readonly string[] = []): boolean {
  if (!held) return false;
  const keys = Object.keys(sent);
  const extra = local.reduce((n, field) => n + (field in held && !(field in sent) ? 1 : 0), 0);
  if (Object.keys(held).length - extra !== keys.length) return false;
  return keys.every((key) => sameValue(held[key], sent[key]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function clearSyncedTables(db: LinkboardDb): Promise<void> {
  await forgetAnchors(db);
  for (const name of syncedTableNames) await db.table(name).clear();
}
