/** Writing server rows into the local database (pulled pages and push answers). */
import { dropDirectories } from '../data/access.ts';
import type { LinkboardDb } from '../data/db.ts';
import { syncedTableNames, type SyncedTableName } from '../data/rows.ts';
import type { WireRows } from '../backend/sync-transport.ts';

/** Every table a sync write touches. */
export function syncScope(db: LinkboardDb) {
  return [...syncedTableNames.map((name) => db.table(name)), db.outbox, db.meta];
}

/** Puts live rows and deletes tombstoned ones (a tombstoned directory takes its content with it). */
export async function putRows(db: LinkboardDb, changes: WireRows | undefined): Promise<void> {
  if (!changes) return;
  for (const name of syncedTableNames) {
    const rows = changes[name];
    if (!rows || rows.length === 0) continue;
    const live = rows.filter((row) => row.deleted_at == null);
    const dead = rows.filter((row) => row.deleted_at != null).map((row) => String(row.id));
    if (live.length > 0) await db.table(name).bulkPut(live);
    if (dead.length > 0) {
      if (name === 'link_directories') await dropDirectories(db, dead);
      else await db.table(name).bulkDelete(dead);
    }
  }
}

export async function deleteRows(
  db: LinkboardDb,
  deleted: Partial<Record<string, string[]>> | undefined,
): Promise<void> {
  if (!deleted) return;
  for (const name of syncedTableNames) {
    const ids = deleted[name as SyncedTableName];
    if (!ids || ids.length === 0) continue;
    if (name === 'link_directories') await dropDirectories(db, ids);
    else await db.table(name).bulkDelete(ids);
  }
}

export async function clearSyncedTables(db: LinkboardDb): Promise<void> {
  for (const name of syncedTableNames) await db.table(name).clear();
}
