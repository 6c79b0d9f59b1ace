/**
 * The rows a read-write transaction has read by key and not written since, per store: the kept
 * counts (index-counts.ts) take the rows a write replaces and the counts it changes from here
 * when a mutator read them ahead, with its own first read, and then issue the write and the
 * counts' write together (docs/scale.md, "Queue 1,000 writes"). While a transaction holds a store
 * for writing no other transaction writes it, so a row it read and has not written since is the
 * row stored.
 */
import type { DBCoreTransaction } from 'dexie';

type Rows = Map<unknown, unknown>;

const isReadWrite = (trans: DBCoreTransaction) => (trans as unknown as { mode?: string }).mode === 'readwrite';

/**
 * Reads of more keys than this (a pull's pages, thousands) are not kept. A push answer's rows (up
 * to 500, read to compare before they are written) are: the write then takes the rows it replaces
 * from that read instead of reading each again (docs/scale.md, "A push answer's links are read once").
 */
const KEEP_MAX = 1000;

const copyOf = (row: unknown) => (typeof row === 'object' && row !== null ? { ...row } : row);

export class TransactionReads {
  private readonly rows = new WeakMap<DBCoreTransaction, Map<string, Rows>>();
  /** Writes issued per store, so a read answered after a write to its store is not kept. */
  private readonly writes = new WeakMap<DBCoreTransaction, Map<string, number>>();

  private rowsOf(trans: DBCoreTransaction, store: string): Rows {
    let stores = this.rows.get(trans);
    if (!stores) this.rows.set(trans, (stores = new Map()));
    let rows = stores.get(store);
    if (!rows) stores.set(store, (rows = new Map()));
    return rows;
  }

  private writesTo(trans: DBCoreTransaction, store: string): number {
    return this.writes.get(trans)?.get(store) ?? 0;
  }

  /** `issue`'s answer (a row or undefined per key), kept when no write to `store` was issued meanwhile. */
  read<T extends readonly unknown[]>(
    trans: DBCoreTransaction,
    store: string,
    keys: readonly unknown[],
    issue: () => Promise<T>,
  ): Promise<T> {
    if (!isReadWrite(trans) || keys.length > KEEP_MAX) return issue();
    const before = this.writesTo(trans, store);
    return issue().then((answer) => {
      if (this.writesTo(trans, store) === before) {
        const rows = this.rowsOf(trans, store);
        // A copy: the caller may change the row it was given before it writes it.
        keys.forEach((key, i) => rows.set(key, copyOf(answer[i])));
      }
      return answer;
    });
  }

  /**
   * A write to `store` is issued: `keys` (null: any) are forgotten, or known to hold `values`
   * (undefined: none) when given.
   */
  wrote(trans: DBCoreTransaction, store: string, keys: readonly unknown[] | null, values?: readonly unknown[]): void {
    if (!isReadWrite(trans)) return;
    let writes = this.writes.get(trans);
    if (!writes) this.writes.set(trans, (writes = new Map()));
    writes.set(store, (writes.get(store) ?? 0) + 1);
    const rows = this.rowsOf(trans, store);
    if (keys === null) rows.clear();
    else keys.forEach((key, i) => (values ? rows.set(key, values[i]) : rows.delete(key)));
  }

  /** The rows of `keys` (undefined: none), when every one is known; null otherwise. */
  recall<T>(trans: DBCoreTransaction, store: string, keys: readonly unknown[]): (T | undefined)[] | null {
    const rows = this.rows.get(trans)?.get(store);
    if (!rows || !keys.every((key) => rows.has(key))) return null;
    return keys.map((key) => rows.get(key) as T | undefined);
  }
}
