/**
 * Writes a screen shows before IndexedDB has committed them (docs/architecture.md, "The write path").
 *
 * `mutate` validates, applies and queues in one explicit read-write transaction. Dexie's own
 * optimistic updates skip explicit transactions, so a live query only sees the change once the
 * transaction has committed and the query has read IndexedDB again: two round trips between
 * the click and the paint. Here are held, per table, a mutator's prediction (shown in the
 * click's own task) and every row a tracked transaction puts or deletes (reported by
 * pending-writes-middleware.ts as the write is issued); once apply has issued all of them they
 * are revealed together (a screen never shows half of a change, such as a vote without its
 * poll's counts), and screens that read through `useWithPending` lay them over their last live
 * result at once. An aborted transaction takes its rows back; a committed one keeps them until
 * every live query has read IndexedDB after the commit.
 */
import type { DBCoreTransaction } from 'dexie';

export type Row = Readonly<Record<string, unknown>>;

export interface PendingWrite {
  key: string;
  /** The row as written, or null when deleted (ignored when `update` is set). */
  row: Row | null;
  /**
   * A predicted change of a row the screen already holds (a star, a vote's count): the row as
   * it will be, from the row as shown. Screens apply it with `resolveWrites`.
   */
  update?: (row: Row) => Row;
  /** The commit's epoch; null while the transaction is open. */
  epoch: number | null;
}

/**
 * A write a mutation will make, known from its args alone before its transaction has read
 * anything (a mutator's `predict`): a whole row (null: deleted) or a change of the row shown.
 */
export type Predicted = { table: string; key: string } & ({ row: Row | null } | { update: (row: Row) => Row });

/** The predictions of one `mutate` call, until its transaction reveals its own writes or fails. */
export interface Prediction {
  readonly writes: readonly Predicted[];
}

interface Entry extends PendingWrite {
  /** The transaction that wrote it, or the prediction that foresaw it. */
  tx: DBCoreTransaction | Prediction;
  /** Shown once the whole change is written (reveal), so no screen sees half of it. */
  shown: boolean;
}

/**
 * `writes` as whole rows: a predicted `update` applied to the latest write of its row before it
 * in `writes`, else to `shown(key)` (the row the screen holds); dropped when neither has it.
 */
export function resolveWrites(
  writes: readonly PendingWrite[],
  shown: (key: string) => Row | undefined,
): readonly PendingWrite[] {
  if (!writes.some((write) => write.update)) return writes;
  const latest = new Map<string, Row | null>();
  const out: PendingWrite[] = [];
  for (const write of writes) {
    if (!write.update) {
      latest.set(write.key, write.row);
      out.push(write);
      continue;
    }
    const base = latest.has(write.key) ? latest.get(write.key) : shown(write.key);
    if (!base) continue;
    const row = write.update(base);
    latest.set(write.key, row);
    out.push({ key: write.key, row, epoch: write.epoch });
  }
  return out;
}

/** How long a committed write is kept for queries that have not read again yet. */
const KEEP_COMMITTED_MS = 10_000;

export class PendingWrites {
  /** The latest row seen of each row of a known table (knownTables), read or written. */
  private readonly known = new Map<string, Map<string, Row>>();
  private readonly tracked = new WeakSet<DBCoreTransaction>();
  private readonly watched = new WeakSet<DBCoreTransaction>();
  private readonly byTable = new Map<string, Entry[]>();
  private readonly listeners = new Set<() => void>();
  private epoch = 0;
  private version = 0;
  /** A burst's changes are told together (coalesce): the timer of the next telling, if any. */
  private coalesced: ReturnType<typeof setTimeout> | null = null;
  private coalescing = false;

  /** The commit epoch now: a query started at this epoch sees every write committed up to it. */
  readonly currentEpoch = (): number => this.epoch;
  /** Changes whenever a write is added, committed or taken back (useSyncExternalStore). */
  readonly getVersion = (): number => this.version;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * The latest version of a row of a small table (knownTables) this database has read or
   * written, for a prediction; it may be stale or from a write that failed, so a prediction
   * made with it is only shown until the transaction's own writes replace it.
   */
  knownRow(table: string, key: string): Row | undefined {
    return this.known.get(table)?.get(key);
  }

  /** The middleware's hook: rows of a known table read or written (null: deleted; keys null: all). */
  saw(table: string, rows: readonly { key: string; row: Row | null }[] | null): void {
    if (rows === null) {
      this.known.delete(table);
      return;
    }
    const held = this.known.get(table) ?? new Map<string, Row>();
    for (const { key, row } of rows) {
      if (row) held.set(key, row);
      else held.delete(key);
    }
    this.known.set(table, held);
  }

  /** Writes of this transaction are shown before it commits (change-on-screen.ts calls this). */
  track(tx: DBCoreTransaction): void {
    this.tracked.add(tx);
  }

  /** The table's writes not yet read back by a query that started at `since`. */
  forTable(table: string, since: number): readonly PendingWrite[] {
    const entries = this.byTable.get(table);
    if (!entries) return [];
    return entries
      .filter((entry) => entry.shown && (entry.epoch === null || entry.epoch > since))
      .map(({ key, row, update, epoch }) => (update ? { key, row, update, epoch } : { key, row, epoch }));
  }

  /**
   * Shows `writes` at once, before the transaction that will make them has started: the frame
   * after the click shows the change. `reveal` with this prediction replaces
   * them by the transaction's own writes; `drop` takes them back (the change was refused).
   */
  predict(writes: readonly Predicted[]): Prediction | null {
    if (writes.length === 0) return null;
    const prediction: Prediction = { writes };
    for (const write of writes) {
      const entries = this.byTable.get(write.table) ?? [];
      const made =
        'update' in write ? { key: write.key, row: null, update: write.update } : { key: write.key, row: write.row };
      entries.push({ ...made, epoch: null, tx: prediction, shown: true });
      this.byTable.set(write.table, entries);
    }
    this.emit();
    return prediction;
  }

  /** Takes a prediction's writes back (its transaction failed, or revealed its own writes). */
  drop(prediction: Prediction): void {
    if (this.remove(prediction)) this.emit();
  }

  /** Removes the entries of `tx`; answers whether there were any. */
  private remove(tx: Entry['tx']): boolean {
    let removed = false;
    for (const [table, entries] of this.byTable) {
      const kept = entries.filter((entry) => entry.tx !== tx);
      if (kept.length === entries.length) continue;
      removed = true;
      if (kept.length === 0) this.byTable.delete(table);
      else this.byTable.set(table, kept);
    }
    return removed;
  }

  /** The middleware's hook: a write issued in `tx`. */
  written(tx: DBCoreTransaction, table: string, writes: readonly { key: string; row: PendingWrite['row'] }[]): void {
    if (!this.tracked.has(tx) || writes.length === 0) return;
    this.watch(tx);
    const entries = this.byTable.get(table) ?? [];
    for (const write of writes) entries.push({ ...write, epoch: null, tx, shown: false });
    this.byTable.set(table, entries);
  }

  /**
   * Shows the writes `tx` has issued so far, all at once (change-on-screen.ts, after apply), in
   * place of the `prediction` of them, if any: one change on screen, never a gap between them.
   */
  reveal(tx: DBCoreTransaction, prediction?: Prediction | null): void {
    let revealed = false;
    for (const [table, entries] of this.byTable) {
      const mine = new Set(entries.filter((entry) => entry.tx === tx && !entry.shown));
      const at = prediction ? entries.findIndex((entry) => entry.tx === prediction) : -1;
      for (const entry of mine) entry.shown = true;
      if (mine.size > 0) revealed = true;
      if (at === -1) continue;
      // The writes take the prediction's place: a later call's prediction, made while this
      // transaction waited for a paint, stays after them (the latest write of a row wins), so a
      // quick second click never shows the first one's row again.
      revealed = true;
      const others = entries.filter((entry) => entry.tx !== prediction && !mine.has(entry));
      const place = entries.slice(0, at).filter((entry) => entry.tx !== prediction && !mine.has(entry)).length;
      const ordered = [...others.slice(0, place), ...mine, ...others.slice(place)];
      if (ordered.length === 0) this.byTable.delete(table);
      else this.byTable.set(table, ordered);
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

  /**
   * Within a burst of saves (mutate, after-paint.ts), the changes of the next `ms` are told to
   * screens once, at its end, not each as it comes: every telling re-renders the screens that
   * read through `useWithPending` in a task of its own, which the burst's next save waits behind.
   * A save after a pause is told at once again.
   */
  coalesce(ms: number): void {
    this.coalescing = true;
    if (this.coalesced !== null) return;
    this.coalesced = setTimeout(() => {
      this.coalesced = null;
      this.coalescing = false;
      this.tell();
    }, ms);
  }

  private emit(): void {
    this.version += 1;
    if (!this.coalescing) this.tell();
  }

  private tell(): void {
    for (const listener of this.listeners) listener();
  }
}
