/**
 * A live list of rows that shows a change in the frame after the click (issue 15, point 1):
 * the last result of the IndexedDB query, with the writes `mutate` has issued but IndexedDB
 * has not yet given back laid over it (pending-writes.ts).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo, useSyncExternalStore } from 'react';
import type { LinkboardDb } from '../db.ts';
import type { PendingWrite } from '../pending-writes.ts';
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
  // The latest write of each row wins.
  const latest = new Map<string, T | null>();
  for (const write of writes) latest.set(write.key, write.row as T | null);
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

/**
 * `query` (rows of `table` that `view.belongs` describes, in `view.compare`'s order) as a live
 * list with pending writes applied. Undefined while the first read runs. `view` must change
 * whenever `deps` do (memoize it on them).
 */
export function useLiveRows<T extends { id: string }>(
  db: LinkboardDb,
  table: SyncedTableName,
  query: () => Promise<T[]>,
  deps: unknown[],
  view: RowView<T>,
): T[] | undefined {
  const live = useLiveQuery(async () => {
    // Writes committed up to here are in what the query reads.
    const since = db.pending.currentEpoch();
    return { rows: await query(), since };
  }, [db, ...deps]);
  const version = useSyncExternalStore(db.pending.subscribe, db.pending.getVersion);
  return useMemo(
    () => (live ? overlay(live.rows, db.pending.forTable(table, live.since), view) : undefined),
    // `version` marks a change of the pending writes (read through db.pending).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [live, version, db, table, view],
  );
}
