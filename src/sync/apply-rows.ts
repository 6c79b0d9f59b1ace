/** Writing server rows into the local database (pulled pages and push answers). */
import { dropRows } from '../data/access.ts';
import type { LinkboardDb } from '../data/db.ts';
import { checkRows, isSyncedTableName, syncedTableNames } from '../data/synced-tables.ts';
import type { Touched } from '../data/targets.ts';
import type { WireRows } from '../backend/sync-transport.ts';

/** Every table a sync write touches. */
export function syncScope(db: LinkboardDb) {
  return [...syncedTableNames.map((name) => db.table(name)), db.outbox, db.meta];
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

/**
 * Puts live rows and deletes tombstoned ones (a tombstoned row takes what goes with it, a
 * directory its content), noting what was written in `touched`. Rows are checked first.
 */
export async function putRows(db: LinkboardDb, changes: WireRows | undefined, touched?: Touched): Promise<void> {
  if (!changes) return;
  checkWireRows(changes);
  for (const name of syncedTableNames) {
    const rows = changes[name];
    if (!rows || rows.length === 0) continue;
    for (const row of rows) touched?.noteRow(name, row);
    const live = rows.filter((row) => row.deleted_at == null);
    const dead = rows.filter((row) => row.deleted_at != null).map((row) => String(row.id));
    if (live.length > 0) await db.table(name).bulkPut(live);
    await dropRows(db, name, dead, touched);
  }
}

export async function deleteRows(
  db: LinkboardDb,
  deleted: Partial<Record<string, string[]>> | undefined,
  touched?: Touched,
): Promise<void> {
  if (!deleted) return;
  for (const name of syncedTableNames) await dropRows(db, name, deleted[name] ?? [], touched);
}

export async function clearSyncedTables(db: LinkboardDb): Promise<void> {
  for (const name of syncedTableNames) await db.table(name).clear();
}
