/**
 * Writes a screen shows before IndexedDB has committed them (issue 15, point 1).
 *
 * `mutate` validates, applies and queues in one explicit read-write transaction. Dexie's own
 * optimistic updates skip explicit transactions, so a live query only sees the change once the
 * transaction has committed and the query has read IndexedDB again: two round trips between
 * the click and the paint. Here a DBCore middleware notes every row a `mutate` transaction
 * puts or deletes as the write is issued; once the mutator's apply has issued all of them,
 * `mutate` reveals them together (a screen never shows half of a change, such as a vote
 * without its poll's counts), and screens that read through `useWithPending` lay them over
 * their last live result at once. An aborted transaction takes its rows back; a committed one
 * keeps them until every live query has read IndexedDB after the commit.
 */
import type { DBCore, DBCoreMutateRequest, DBCoreTransaction, Middleware } from 'dexie';

export interface PendingWrite {
  key: string;
  /** The row as written, or null when deleted. */
  row: Readonly<Record<string, unknown>> | null;
  /** The commit's epoch; null while the transaction is open. */
  epoch: number | null;
}

interface Entry extends PendingWrite {
  tx: DBCoreTransaction;
  /** Shown once the whole change is written (reveal), so no screen sees half of it. */
  shown: boolean;
}

/** How long a committed write is kept for queries that have not read again yet. */
const KEEP_COMMITTED_MS = 10_000;

export class PendingWrites {
  private readonly tracked = new WeakSet<DBCoreTransaction>();
  private readonly watched = new WeakSet<DBCoreTransaction>();
  private readonly byTable = new Map<string, Entry[]>();
  private readonly listeners = new Set<() => void>();
  private epoch = 0;
  private version = 0;

  /** The commit epoch now: a query started at this epoch sees every write committed up to it. */
  readonly currentEpoch = (): number => this.epoch;
  /** Changes whenever a write is added, committed or taken back (useSyncExternalStore). */
  readonly getVersion = (): number => this.version;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Writes of this transaction are shown before it commits (`mutate` calls this). */
  track(tx: DBCoreTransaction): void {
    this.tracked.add(tx);
  }

  /** The table's writes not yet read back by a query that started at `since`. */
  forTable(table: string, since: number): readonly PendingWrite[] {
    const entries = this.byTable.get(table);
    if (!entries) return [];
    return entries
      .filter((entry) => entry.shown && (entry.epoch === null || entry.epoch > since))
      .map(({ key, row, epoch }) => ({ key, row, epoch }));
  }

  /** The middleware's hook: a write issued in `tx`. */
  written(tx: DBCoreTransaction, table: string, writes: readonly { key: string; row: PendingWrite['row'] }[]): void {
    if (!this.tracked.has(tx) || writes.length === 0) return;
    this.watch(tx);
    const entries = this.byTable.get(table) ?? [];
    for (const write of writes) entries.push({ ...write, epoch: null, tx, shown: false });
    this.byTable.set(table, entries);
  }

  /** Shows the writes `tx` has issued so far, all at once (`mutate` calls this after apply). */
  reveal(tx: DBCoreTransaction): void {
    let revealed = false;
    for (const entries of this.byTable.values()) {
      for (const entry of entries) {
        if (entry.tx === tx && !entry.shown) {
          entry.shown = true;
          revealed = true;
        }
      }
    }
    if (revealed) this.emit();
  }

  private watch(tx: DBCoreTransaction): void {
    if (this.watched.has(tx)) return;
    this.watched.add(tx);
    const target = tx as unknown as EventTarget;
    if (typeof target.addEventListener !== 'function') return;
    target.addEventListener('complete', () => this.settle(tx, true), { once: true });
    target.addEventListener('abort', () => this.settle(tx, false), { once: true });
  }

  private settle(tx: DBCoreTransaction, committed: boolean): void {
    const epoch = ++this.epoch;
    for (const [table, entries] of this.byTable) {
      const kept = committed ? entries : entries.filter((entry) => entry.tx !== tx);
      if (committed) {
        for (const entry of kept) {
          if (entry.tx !== tx) continue;
          entry.epoch = epoch;
          entry.shown = true;
        }
      }
      if (kept.length === 0) this.byTable.delete(table);
      else this.byTable.set(table, kept);
    }
    this.emit();
    if (committed) setTimeout(() => this.forget(epoch), KEEP_COMMITTED_MS);
  }

  private forget(epoch: number): void {
    for (const [table, entries] of this.byTable) {
      const kept = entries.filter((entry) => entry.epoch === null || entry.epoch > epoch);
      if (kept.length === 0) this.byTable.delete(table);
      else this.byTable.set(table, kept);
    }
    this.emit();
  }

  private emit(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }
}

function writesOf(
  req: DBCoreMutateRequest,
  keyPath: string | null,
): { key: string; row: PendingWrite['row'] }[] | null {
  switch (req.type) {
    case 'add':
    case 'put':
      if (keyPath === null) return null;
      return req.values.map((value: Record<string, unknown>) => ({ key: String(value[keyPath]), row: { ...value } }));
    case 'delete':
      return req.keys.map((key) => ({ key: String(key), row: null }));
    default:
      // A range delete names no rows: screens see it after the commit, as before.
      return null;
  }
}

/** The DBCore middleware that reports a tracked transaction's writes to `tables` to `pending`. */
export function pendingWritesMiddleware(pending: PendingWrites, tables: ReadonlySet<string>): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'PendingWrites',
    create(down) {
      return {
        ...down,
        table(name) {
          const table = down.table(name);
          if (!tables.has(name)) return table;
          const keyPath = typeof table.schema.primaryKey.keyPath === 'string' ? table.schema.primaryKey.keyPath : null;
          return {
            ...table,
            mutate(req) {
              const result = table.mutate(req);
              const writes = writesOf(req, keyPath);
              if (writes) pending.written(req.trans, name, writes);
              return result;
            },
          };
        },
      };
    },
  };
}
