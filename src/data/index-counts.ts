/**
 * Counts kept per index value, per directory where a screen needs them. IndexedDB counts an index range by walking it: 45 ms for a directory of 10,000
 * links in Chromium, on every wake of every screen that shows the number. Here the number is a
 * row of the `counts` store, kept by a DBCore middleware in the same transaction as every write
 * to a counted table (a mutation, a pull, a push answer, a purge, a clear), so reading it is one
 * `get`, and a live query on it wakes only when that number changes.
 *
 * The middleware adds `counts` to the scope of every read-write transaction on a counted table,
 * reads the rows a write replaces or deletes, and after the write adjusts the counts of the
 * index values that left and arrived. A transaction's writes to counted tables run one after
 * another, so two of them never read the same count before either has written it.
 */
import type { DBCore, DBCoreKeyRange, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import { ANY, KEY_SCAN_FROM, heldRows, keyRange, writtenKeys } from './index-counts-rows.ts';
import { TransactionReads } from './transaction-reads.ts';

export const COUNTS_STORE = 'counts';

export interface CountRow {
  key: string;
  n: number;
}

/** The counts store's key of `table`'s rows whose `index` is `value`. */
export function countKey(table: string, index: string, value: unknown): string {
  return `${table}/${index}/${String(value)}`;
}

/**
 * The counts store's key of how many rows have arrived at or left `value` of `index` (a row
 * edited in place does not count): it only grows, so a screen that noted positions in that
 * range (link-window.ts) knows they still hold while it is unchanged. Outside the table's count
 * keys (a clear leaves it, and the rows that come back make it grow).
 */
export function movesKey(table: string, index: string, value: unknown): string {
  return `${table}~moves/${index}/${String(value)}`;
}

/** Keys of every count of `table` (and of one `index` of it). */
export function countKeyRange(table: string, index?: string): { lower: string; upper: string } {
  const prefix = index === undefined ? `${table}/` : `${table}/${index}/`;
  return { lower: prefix, upper: `${prefix}\uffff` };
}

/**
 * A count kept by a value derived from the row rather than a field of it (say the month of an
 * instant field): counted under `countKey(table, name, of(row))`, none where `of` gives undefined.
 * Rows stored before it was kept have no count: whoever reads it must know when it was filled.
 */
export interface DerivedCount {
  name: string;
  of(row: Record<string, unknown>): string | undefined;
}

/** A counted field, or a derived count. */
export type CountedIndex = string | DerivedCount;

/** The counts of `rows` per counted index value, in a form the counts store takes. */
export function countsOf(
  table: string,
  indexes: readonly CountedIndex[],
  rows: Iterable<Record<string, unknown>>,
): CountRow[] {
  const counts = new Map<string, number>();
  for (const row of rows) bump(counts, table, indexes, row, 1);
  return [...counts].map(([key, n]) => ({ key, n }));
}

function bump(
  deltas: Map<string, number>,
  table: string,
  indexes: readonly CountedIndex[],
  row: Record<string, unknown> | undefined,
  by: number,
): void {
  if (!row) return;
  for (const index of indexes) {
    const value = typeof index === 'string' ? row[index] : index.of(row);
    if (value === null || value === undefined) continue;
    const key = countKey(table, typeof index === 'string' ? index : index.name, value);
    deltas.set(key, (deltas.get(key) ?? 0) + by);
  }
}

/** Counts a row's arrival at or departure from each index value it changed (movesKey). */
function noteMoves(
  deltas: Map<string, number>,
  table: string,
  indexes: readonly string[],
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): void {
  for (const index of indexes) {
    const [left, arrived] = [before?.[index], after?.[index]];
    if (left === arrived) continue;
    for (const value of [left, arrived]) {
      if (value === null || value === undefined) continue;
      const key = movesKey(table, index, value);
      deltas.set(key, (deltas.get(key) ?? 0) + 1);
    }
  }
}

/** The counts keys (countKey, movesKey) that rows arriving may change: read with the rows they replace. */
export function countKeysOf(
  table: string,
  indexes: readonly CountedIndex[],
  movedIndexes: readonly string[],
  rows: readonly (Record<string, unknown> | undefined)[],
): string[] {
  // A page of a pull writes thousands of rows: their counts are read once their deltas are known.
  if (rows.length > ARRIVING_READ_MAX) return [];
  const keys = new Map<string, number>();
  for (const row of rows) {
    bump(keys, table, indexes, row, 1);
    noteMoves(keys, table, movedIndexes, undefined, row);
  }
  return [...keys.keys()];
}

/** Up to this many rows a write reads the counts they arrive at along with the rows they replace. */
const ARRIVING_READ_MAX = 50;

/** The counts rows a write issues are known to hold what it writes (TransactionReads). */
function noteCounts(reads: TransactionReads, trans: DBCoreTransaction, values: readonly CountRow[]): void {
  reads.wrote(
    trans,
    COUNTS_STORE,
    values.map((row) => row.key),
    values,
  );
}

export { KEY_SCAN_FROM } from './index-counts-rows.ts';

/** The DBCore middleware keeping `counted` (table → indexes) in the counts store. */
export function indexCountsMiddleware(
  counted: Readonly<Record<string, readonly CountedIndex[]>>,
  moved: Readonly<Record<string, readonly string[]>> = {},
): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'IndexCounts',
    create(down) {
      const chains = new WeakMap<DBCoreTransaction, Promise<unknown>>();
      const reads = new TransactionReads();
      /** Runs `task` after the transaction's earlier counted writes (see the file's comment). */
      function serial<T>(trans: DBCoreTransaction, task: () => Promise<T>): Promise<T> {
        const previous = chains.get(trans) ?? Promise.resolve();
        const next = previous.then(task);
        chains.set(
          trans,
          next.catch(() => undefined),
        );
        return next;
      }

      /** The deltas of the counts (and moves) of `before` replaced by `after`, but for the writes that failed. */
      function deltasOf(
        name: string,
        indexes: readonly CountedIndex[],
        movedIndexes: readonly string[],
        before: readonly (Record<string, unknown> | undefined)[],
        after: readonly (Record<string, unknown> | undefined)[],
        failed: (i: number) => boolean,
      ): [string, number][] {
        const deltas = new Map<string, number>();
        // `before` holds a row (or undefined) for each written key, in the order of `after`.
        before.forEach((row, i) => {
          if (failed(i)) return;
          bump(deltas, name, indexes, row, -1);
          bump(deltas, name, indexes, after[i], 1);
          noteMoves(deltas, name, movedIndexes, row, after[i]);
        });
        return [...deltas].filter(([, delta]) => delta !== 0);
      }

      /** The counts rows `changed` leaves, from those held (`known`). */
      function countsAfter(changed: [string, number][], known: ReadonlyMap<string, CountRow | undefined>): CountRow[] {
        return changed.map(([key, delta]) => ({ key, n: Math.max(0, (known.get(key)?.n ?? 0) + delta) }));
      }

      async function countedMutate(
        table: DBCoreTable,
        indexes: readonly CountedIndex[],
        movedIndexes: readonly string[],
        req: DBCoreMutateRequest,
      ) {
        const counts = down.table(COUNTS_STORE);
        const { trans } = req;
        const name = table.name;
        if (req.type === 'deleteRange') {
          reads.wrote(trans, name, null);
          if (req.range.type === (ANY as DBCoreKeyRange['type'])) {
            // A clear: the table's counts go with it.
            const result = await table.mutate(req);
            reads.wrote(trans, COUNTS_STORE, null);
            await counts.mutate({ type: 'deleteRange', trans, range: keyRange(countKeyRange(name)) });
            return result;
          }
        }
        const keyPath = table.schema.primaryKey.keyPath as string;
        const keys =
          req.type === 'deleteRange'
            ? []
            : req.type === 'delete'
              ? req.keys
              : (req.keys ?? req.values.map((value) => value[keyPath]));
        const after: readonly (Record<string, unknown> | undefined)[] =
          req.type === 'add' || req.type === 'put' ? req.values : [];
        const held = req.type === 'deleteRange' ? null : reads.recall<Record<string, unknown>>(trans, name, keys);
        if (req.type !== 'deleteRange') reads.wrote(trans, name, keys);
        if (held) {
          // A mutator read the rows and their counts ahead: the write and the counts' go together.
          const changed = deltasOf(name, indexes, movedIndexes, held, after, () => false);
          const current = reads.recall<CountRow>(
            trans,
            COUNTS_STORE,
            changed.map(([key]) => key),
          );
          if (current) {
            const known = new Map(changed.map(([key], i) => [key, current[i]]));
            const values = countsAfter(changed, known);
            noteCounts(reads, trans, values);
            const [result] = await Promise.all([
              table.mutate(req),
              values.length > 0 ? counts.mutate({ type: 'put', trans, values }) : undefined,
            ]).catch(async (error: unknown) => {
              // The write refused whole (its caller may go on): the counts as they were.
              const gone = changed.filter(([key]) => !known.get(key)).map(([key]) => key);
              const kept = changed.flatMap(([key]) => known.get(key) ?? []);
              reads.wrote(trans, COUNTS_STORE, null);
              if (gone.length > 0) await counts.mutate({ type: 'delete', trans, keys: gone });
              if (kept.length > 0) await counts.mutate({ type: 'put', trans, values: kept });
              throw error;
            });
            if (result.numFailures === 0) return result;
            // Counted as if every write succeeded: counted again without those that failed.
            const kept = deltasOf(name, indexes, movedIndexes, held, after, (i) => Boolean(result.failures[i]));
            const byKey = new Map(kept);
            const fixed = countsAfter(
              changed.map(([key]) => [key, byKey.get(key) ?? 0]),
              known,
            );
            noteCounts(reads, trans, fixed);
            if (fixed.length > 0) await counts.mutate({ type: 'put', trans, values: fixed });
            return result;
          }
        }
        // The rows replaced are read before the write is issued: in one request, the write goes with
        // it (IndexedDB runs a transaction's requests in order, so the read still sees them), and so
        // does the read of the counts the new rows change (docs/scale.md, "Queue 1,000 writes").
        const scan = req.type !== 'deleteRange' && !held && keys.length >= KEY_SCAN_FROM;
        const read: Promise<(Record<string, unknown> | undefined)[]> = held
          ? Promise.resolve(held)
          : req.type === 'deleteRange'
            ? table
                .query({ trans, values: true, query: { index: table.schema.primaryKey, range: req.range } })
                .then((answer) => answer.result)
            : heldRows(table, trans, keys);
        if (scan) await read;
        const arriving = scan ? [] : countKeysOf(name, indexes, movedIndexes, after);
        const counted: Promise<(CountRow | undefined)[]> =
          arriving.length > 0 ? counts.getMany({ trans, keys: arriving }) : Promise.resolve([]);
        const [before, result, arrived] = await Promise.all([read, table.mutate(req), counted]);
        const failed = (i: number) => req.type !== 'deleteRange' && Boolean(result.failures[i]);
        const changed = deltasOf(name, indexes, movedIndexes, before, after, failed);
        if (changed.length === 0) return result;
        const known = new Map<string, CountRow | undefined>(arriving.map((key, i) => [key, arrived[i]]));
        // Only the counts of values the rows left (a move, a delete) are still to read.
        const missing = changed.map(([key]) => key).filter((key) => !known.has(key));
        if (missing.length > 0) {
          const rows: (CountRow | undefined)[] = await counts.getMany({ trans, keys: missing });
          missing.forEach((key, i) => known.set(key, rows[i]));
        }
        const values = countsAfter(changed, known);
        noteCounts(reads, trans, values);
        await counts.mutate({ type: 'put', trans, values });
        return result;
      }

      return {
        ...down,
        transaction(stores, mode, options) {
          const widened =
            mode === 'readwrite' && stores.some((store) => store in counted) && !stores.includes(COUNTS_STORE)
              ? [...stores, COUNTS_STORE]
              : stores;
          return down.transaction(widened, mode, options);
        },
        table(name) {
          const table = down.table(name);
          const indexes = counted[name];
          if (!indexes && name !== COUNTS_STORE) return table;
          // Reads by key of a counted table or the counts are kept for the writes after them.
          const readers: Pick<DBCoreTable, 'get' | 'getMany'> = {
            get: (req) =>
              reads.read(req.trans, name, [req.key], () => table.get(req).then((row) => [row])).then(([row]) => row),
            getMany: (req) => reads.read(req.trans, name, req.keys, () => table.getMany(req)),
          };
          if (!indexes) {
            return {
              ...table,
              ...readers,
              mutate: (req) => {
                reads.wrote(req.trans, name, writtenKeys(req, table.schema.primaryKey.keyPath as string));
                return table.mutate(req);
              },
            };
          }
          const movedIndexes = moved[name] ?? [];
          return {
            ...table,
            ...readers,
            mutate: (req) => serial(req.trans, () => countedMutate(table, indexes, movedIndexes, req)),
          };
        },
      };
    },
  };
}
