/**
 * Live reads that show a change in the frame after the click (docs/architecture.md): the last
 * result of an IndexedDB query, with the writes `mutate` has issued but IndexedDB has not yet
 * given back laid over it (pending-writes.ts).
 */
import { useCallback, useRef, useSyncExternalStore } from 'react';
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
 * With `same`, an answer that `same` finds equal to the last one is that last one: the pending
 * writes told of elsewhere (a burst of saves into another directory, every WAKE_MS) re-render
 * nothing, and a live result read again that shows what the pending writes showed keeps the
 * objects on screen.
 */
export function useWithPending<L extends SinceRead, R>(
  db: LinkboardDb,
  live: L | undefined,
  apply: (live: L, pending: (table: SyncedTableName) => readonly PendingWrite[]) => R,
  same?: (a: R, b: R) => boolean,
): R | undefined {
  const last = useRef<{ live: L | undefined; version: number; apply: typeof apply; answer: R | undefined } | null>(
    null,
  );
  // A snapshot of the pending writes as this live result shows them: a component re-renders only
  // when it is a new answer (useSyncExternalStore compares the snapshots).
  const snapshot = useCallback(() => {
    const version = db.pending.getVersion();
    const held = last.current;
    if (held && held.live === live && held.version === version && held.apply === apply) return held.answer;
    let answer = live ? apply(live, (table) => db.pending.forTable(table, live.since)) : undefined;
    const previous = held?.answer;
    if (same && previous !== undefined && answer !== undefined && same(previous, answer)) answer = previous;
    last.current = { live, version, apply, answer };
    return answer;
  }, [db, live, apply, same]);
  return useSyncExternalStore(db.pending.subscribe, snapshot);
}

const sameValue = (a: unknown, b: unknown) =>
  a === b || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => item === b[i]));

/** Whether two lists hold the same rows in the same order, field by field (arrays item by item). */
export function sameRows<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((row, i) => {
    const other = b[i] as T;
    if (row === other) return true;
    const keys = Object.keys(row) as (keyof T)[];
    return keys.length === Object.keys(other).length && keys.every((key) => sameValue(row[key], other[key]));
  });
}
