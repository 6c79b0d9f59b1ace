/**
 * Live reads that show a change in the frame after the click (docs/architecture.md): the last
 * result of an IndexedDB query, with the writes `mutate` has issued but IndexedDB has not yet
 * given back laid over it (pending-writes.ts).
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { LinkboardDb } from '../db.ts';
import { resolveWrites, type PendingWrite } from '../pending-writes.ts';
import type { SyncedTableName } from '../synced-tables.ts';

export interface RowView<T> {
  /** Whether a row belongs in this list (the query's own condition). */
  belongs(row: T): boolean;
  /** The list's order (the query's). */
  compare(a: T, b: T): number;
}

/** `rows` with `writes` applied: replaced, inserted in order, or removed. A new array when anything changed. */
export function overlay<T extends { id: string }>(
  rows: readonly T[],
  writes: readonly PendingWrite[],
  view: RowView<T>,
): T[] {
  if (writes.length === 0) return rows as T[];
  // The latest write of each row wins; a predicted change applies to the row shown.
  const latest = new Map<string, T | null>();
  const resolved = resolveWrites(writes, (key) => rows.find((row) => row.id === key));
  for (const write of resolved) latest.set(write.key, write.row as T | null);
  const out = rows.filter((row) => !latest.has(row.id));
  for (const row of latest.values()) {
    if (row === null || !view.belongs(row)) continue;
    out.splice(insertionPoint(out, row, view.compare), 0, row);
  }
  return out;
}

/** The first index whose row sorts after `row` (binary search over a sorted list). */
function insertionPoint<T>(rows: readonly T[], row: T, compare: (a: T, b: T) => number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(rows[middle] as T, row) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A live read with the commit epoch it started at (what pending writes it already holds). */
export interface SinceRead {
  since: number;
}

/** Runs `read` noting the commit epoch first: writes committed up to it are in what it reads. */
export async function readSince<T extends object>(db: LinkboardDb, read: () => Promise<T>): Promise<T & SinceRead> {
  const since = db.pending.currentEpoch();
  return { ...(await read()), since };
}

/**
 * A live result (read with `readSince`) with the pending writes it does not hold applied by
 * `apply`, again whenever they change. `apply` must change only with what it reads (memoize it).
 */
export function useWithPending<L extends SinceRead, R>(
  db: LinkboardDb,
  live: L | undefined,
  apply: (live: L, pending: (table: SyncedTableName) => readonly PendingWrite[]) => R,
): R | undefined {
  const version = useSyncExternalStore(db.pending.subscribe, db.pending.getVersion);
  return useMemo(
    () => (live ? apply(live, (table) => db.pending.forTable(table, live.since)) : undefined),
    // `version` marks a change of the pending writes (read through db.pending).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [live, version, db, apply],
  );
}
