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
  table: string;
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
/**
 * The commits of this long are forgotten together, at most this much later than KEEP_COMMITTED_MS:
 * a burst of a thousand saves walks the held writes a few times, not once per save.
 */
const FORGET_BATCH_MS = 1_000;

export class PendingWrites {
  /** The latest row seen of each row of a known table (knownTables), read or written. */
  private readonly known = new Map<string, Map<string, Row>>();
  private readonly tracked = new WeakSet<DBCoreTransaction>();
  private readonly watched = new WeakSet<DBCoreTransaction>();
  private readonly byTable = new Map<string, Entry[]>();
  /**
   * The entries of each transaction and prediction, so that revealing or settling one touches its
   * own entries, not every held one (a burst holds thousands: docs/scale.md, the queued writes).
   */
  private readonly owned = new WeakMap<Entry['tx'], Entry[]>();
  /** The commits being gathered for one forget (FORGET_BATCH_MS): the latest one's epoch. */
  private forgetting: { epoch: number } | null = null;
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
      const made =
        'update' in write ? { key: write.key, row: null, update: write.update } : { key: write.key, row: write.row };
      this.hold({ ...made, table: write.table, epoch: null, tx: prediction, shown: true });
    }
    this.emit();
    return prediction;
  }

  /** Takes a prediction's writes back (its transaction failed, or revealed its own writes). */
  drop(prediction: Prediction): void {
    if (this.remove(prediction)) this.emit();
  }

  private hold(entry: Entry): void {
    const entries = this.byTable.get(entry.table);
    if (entries) entries.push(entry);
    else this.byTable.set(entry.table, [entry]);
    const own = this.owned.get(entry.tx);
    if (own) own.push(entry);
    else this.owned.set(entry.tx, [entry]);
  }

  /** Removes the entries of `tx`; answers whether there were any. */
  private remove(tx: Entry['tx']): boolean {
    const own = this.owned.get(tx);
    if (!own) return false;
    this.owned.delete(tx);
    let removed = false;
    for (const table of new Set(own.map((entry) => entry.table))) {
      const entries = this.byTable.get(table);
      if (!entries) continue;
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
    for (const write of writes) this.hold({ ...write, table, epoch: null, tx, shown: false });
  }

  /**
   * Shows the writes `tx` has issued so far, all at once (change-on-screen.ts, after apply), in
   * place of the `prediction` of them, if any: one change on screen, never a gap between them.
   */
  reveal(tx: DBCoreTransaction, prediction?: Prediction | null): void {
    const mine = (this.owned.get(tx) ?? []).filter((entry) => !entry.shown);
    for (const entry of mine) entry.shown = true;
    let revealed = mine.length > 0;
    const predicted = prediction ? this.owned.get(prediction) : undefined;
    if (prediction && predicted) {
      // The writes take the prediction's place: a later call's prediction, made while this
      // transaction waited for a paint, stays after them (the latest write of a row wins), so a
      // quick second click never shows the first one's row again.
      revealed = true;
      this.owned.delete(prediction);
      for (const table of new Set(predicted.map((entry) => entry.table))) {
        const entries = this.byTable.get(table);
        if (!entries) continue;
        const foreseen = predicted.filter((entry) => entry.table === table).length;
        const ordered = inPlaceOf(
          entries,
          prediction,
          foreseen,
          new Set(mine.filter((entry) => entry.table === table)),
        );
        if (ordered.length === 0) this.byTable.delete(table);
        else this.byTable.set(table, ordered);
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
    if (committed) {
      for (const entry of this.owned.get(tx) ?? []) {
        entry.epoch = epoch;
        entry.shown = true;
      }
      this.owned.delete(tx);
    } else {
      this.remove(tx);
    }
    this.emit();
    if (committed) this.forgetLater(epoch);
  }

  /**
   * Forgets the writes committed up to `epoch` once KEEP_COMMITTED_MS have passed, with those
   * committed within FORGET_BATCH_MS after it.
   */
  private forgetLater(epoch: number): void {
    if (this.forgetting) {
      this.forgetting.epoch = epoch;
      return;
    }
    const batch = { epoch };
    this.forgetting = batch;
    setTimeout(() => {
      if (this.forgetting === batch) this.forgetting = null;
    }, FORGET_BATCH_MS);
    setTimeout(() => this.forget(batch.epoch), KEEP_COMMITTED_MS + FORGET_BATCH_MS);
  }

  private forget(epoch: number): void {
    for (const [table, entries] of this.byTable) {
      const kept = entries.filter((entry) => entry.epoch === null || entry.epoch > epoch);
      if (kept.length === entries.length) continue;
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

/**
 * `entries` with `mine` (a transaction's writes) in place of the `foreseen` entries of
 * `prediction`, the others kept in order. A save's own writes usually follow its prediction at
 * the end: then only that end is walked and changed.
 */
function inPlaceOf(entries: Entry[], prediction: Prediction, foreseen: number, mine: ReadonlySet<Entry>): Entry[] {
  let tail = entries.length;
  let predicted = 0;
  while (tail > 0) {
    const entry = entries[tail - 1] as Entry;
    if (entry.tx === prediction) predicted += 1;
    else if (!mine.has(entry)) break;
    tail -= 1;
  }
  const inTail = entries.length - tail - predicted;
  if (inTail === mine.size && predicted === foreseen) {
    const ordered = entries.slice(tail).filter((entry) => mine.has(entry));
    entries.length = tail;
    entries.push(...ordered);
    return entries;
  }
  const at = entries.findIndex((entry) => entry.tx === prediction);
  if (at === -1) return entries;
  const others = entries.filter((entry) => entry.tx !== prediction && !mine.has(entry));
  const place = entries.slice(0, at).filter((entry) => entry.tx !== prediction && !mine.has(entry)).length;
  return [...others.slice(0, place), ...mine, ...others.slice(place)];
}
