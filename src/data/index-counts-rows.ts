/**
 * How the kept counts (index-counts.ts) read the rows a write replaces, and which keys a write names.
 */
import { cmp } from 'dexie';
import type { DBCoreKeyRange, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction } from 'dexie';

// DBCoreRangeType is a const enum of Dexie's typings: its values, as Dexie defines them.
export const RANGE = 2;
export const ANY = 3;

export function keyRange(range: { lower: string; upper: string }): DBCoreKeyRange {
  return {
    type: RANGE as DBCoreKeyRange['type'],
    lower: range.lower,
    upper: range.upper,
    lowerOpen: false,
    upperOpen: false,
  };
}

/**
 * From this many keys on, the rows a write replaces are found by reading the keys the table holds
 * between the lowest and the highest of them (one request) and getting only those: a page of a
 * first pull (5,000 new rows) then reads no row at all, where a get per key took 5,000 requests.
 */
export const KEY_SCAN_FROM = 1000;

/** The rows `table` holds under `keys` (undefined where none), in the keys' order. */
export async function heldRows(
  table: DBCoreTable,
  trans: DBCoreTransaction,
  keys: readonly unknown[],
): Promise<(Record<string, unknown> | undefined)[]> {
  // Keys are matched by value in a Set: strings only (the synced tables' uuids).
  if (keys.length < KEY_SCAN_FROM || !keys.every((key) => typeof key === 'string')) {
    return table.getMany({ trans, keys: keys as unknown[] });
  }
  let lower = keys[0];
  let upper = keys[0];
  for (const key of keys) {
    if (cmp(key, lower) < 0) lower = key;
    if (cmp(key, upper) > 0) upper = key;
  }
  const range: DBCoreKeyRange = {
    type: RANGE as DBCoreKeyRange['type'],
    lower,
    upper,
    lowerOpen: false,
    upperOpen: false,
  };
  const { result: present } = await table.query({
    trans,
    values: false,
    query: { index: table.schema.primaryKey, range },
  });
  if (present.length === 0) return keys.map(() => undefined);
  const held = new Set<unknown>(present);
  const wanted = keys.filter((key) => held.has(key));
  const rows = wanted.length > 0 ? await table.getMany({ trans, keys: wanted }) : [];
  const byKey = new Map<unknown, Record<string, unknown> | undefined>(wanted.map((key, i) => [key, rows[i]]));
  return keys.map((key) => byKey.get(key));
}

/** The keys a write names (null: a range, or keys it does not say). */
export function writtenKeys(req: DBCoreMutateRequest, keyPath: string): readonly unknown[] | null {
  if (req.type === 'delete') return req.keys;
  if (req.type === 'add' || req.type === 'put')
    return req.keys ?? req.values.map((value: Record<string, unknown>) => value[keyPath]);
  return null;
}
