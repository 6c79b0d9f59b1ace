/**
 * The sync engine (docs/sync-protocol.md): push the outbox (push-queue.ts), then pull pages until done.
 * Transport, lock, clock and timers are injected, so every path is testable.
 */
import type { LinkboardDb } from '../data/db.ts';
import type { MutationContext } from '../data/mutation-context.ts';
import { upgradeOutbox, type OutboxRow } from '../data/outbox.ts';
import { SyncTransportError, checkPullAnswer, type PushResult, type SyncTransport } from '../backend/sync-transport.ts';
import { RESET_KEY, applyPullPage, readPullState } from './apply-pull.ts';
import { PagesAhead } from './pages-ahead.ts';
import { wantLongDirectories } from '../data/queries/link-anchors.ts';
import { pushQueue } from './push-queue.ts';
import { createMutex, type Lock } from './lock.ts';
import { setSyncStatus, type SyncStatus } from './status-store.ts';
import { BACKOFF_MS, backoffDelay, realTimers, type TimerHandle, type Timers } from './timers.ts';
import { isQuotaError, STORAGE_FULL } from '../data/storage-full.ts';

export interface SyncEngineOptions {
  db: LinkboardDb;
  transport: SyncTransport;
  /** Who syncs; read at every sync (the tier may change). */
  context: () => MutationContext;
  /** Default: an in-memory mutex; the app passes createSyncLock(userId). */
  lock?: Lock;
  timers?: Timers;
  /** Called once on a 401 before the call is retried. */
  refreshSession?: () => Promise<unknown>;
  /** A rejected mutation, with the wording of docs/product.md (the UI shows a toast). */
  onRejected?: (message: string, result: PushResult) => void;
  /** Default: the zustand status store. */
  onStatus?: (status: SyncStatus) => void;
  /**
   * Called (not awaited) after a push and pull both succeeded: work that must wait until the
   * server has recorded the user's changes, such as invitation mails.
   */
  onSynced?: () => void;
  /** Mutations per push (default and at most 500: sync_push refuses more). */
  batchSize?: number;
  /** Bytes of JSON per push of several mutations (default 512 KiB, half the API's body limit). */
  maxPushBytes?: number;
  /** The API's body limit (default 1 MiB): a larger mutation is failed without being sent. */
  maxRequestBytes?: number;
  /**
   * Rows per pulled page after the first (default 5,000, or 10,000 in a pull from scratch: the
   * most the server sends; fewer, larger pages make fewer round trips: docs/scale.md).
   */
  pullLimit?: number;
  backoffMs?: readonly number[];
  /** Failed attempts (not network) after which a mutation is marked 'failed'. */
  maxAttempts?: number;
}

export type SyncOutcome = 'synced' | 'offline' | 'error';

/** Pulled pages waiting for the writer at most (each up to 10,000 rows, about 6 MB of JSON). */
const PAGES_AHEAD = 2;
/** Rows asked for in a pull's first page. */
const FIRST_PAGE = 1000;
/** Rows per page after the first: in a pull after a cursor, and in a pull from scratch. */
const PAGE = 5000;
const SCRATCH_PAGE = 10_000;

export const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

export class SyncEngine {
  private readonly options: SyncEngineOptions;
  private readonly lock: Lock;
  private readonly timers: Timers;
  private running: Promise<SyncOutcome> | null = null;
  private again = false;
  private failures = 0;
  private retryTimer: TimerHandle | null = null;
  private stopped = false;
  private lastSyncedAt: string | null = null;
  /** The outbox as the last report counted it. */
  private counted = { pending: 0, failed: 0 };
  private outboxUpgraded = false;
  /**
   * The cursor of the last pull that changed nothing, and the stored cursor it follows: such a
   * pull writes nothing (no read-write transaction), so its cursor is kept here and used while
   * the stored one is still the one it followed (another tab or the worker may have pulled).
   */
  private quietCursor: { after: string | null; cursor: string } | null = null;

  constructor(options: SyncEngineOptions) {
    this.options = options;
    this.lock = options.lock ?? createMutex();
    this.timers = options.timers ?? realTimers;
  }

  /**
   * Pushes then pulls. Calls made while a sync runs in this engine join it and cause one more
   * round after it; across engines (tabs, the worker) the lock lets one drainer run at a time.
   */
  sync(): Promise<SyncOutcome> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = async (): Promise<SyncOutcome> => {
      let outcome: SyncOutcome;
      do {
        this.again = false;
        // Syncing from the call on, at once: another tab or the service worker may hold the lock
        // and be pushing these very changes, and its writes hold up even a count of the outbox.
        this.emit('syncing', null);
        outcome = await this.lock.run(() => this.drain());
      } while (this.again && outcome === 'synced' && !this.stopped);
      return outcome;
    };
    this.running = run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Puts a failed mutation back in the queue and syncs. */
  async retry(id: string): Promise<SyncOutcome> {
    await this.options.db.outbox
      .where('id')
      .equals(id)
      .modify((row) => {
        row.status = 'pending';
        row.attempts = 0;
        delete row.last_error;
      });
    return this.sync();
  }

  /**
   * Drops a mutation (usually a failed one) and restores the server's version of what it
   * touched: the next pull starts from scratch (like a server-ordered reset, keeping the rest of
   * the outbox), so the optimistic change is replaced by the server's rows. Until that pull
   * succeeds (offline), the optimistic change stays visible.
   */
  async discard(id: string): Promise<SyncOutcome> {
    const { db } = this.options;
    await db.transaction('rw', db.outbox, db.meta, async () => {
      await db.outbox.where('id').equals(id).delete();
      await db.meta.put({ key: RESET_KEY, value: true });
    });
    return this.sync();
  }

  /** Stops scheduled retries (sign-out, tests). */
  stop(): void {
    this.stopped = true;
    this.clearRetry();
  }

  private async drain(): Promise<SyncOutcome> {
    this.clearRetry();
    // Syncing was announced when the sync was called (run); the outbox is counted at the end.
    try {
      if (!this.outboxUpgraded) {
        // Entries written by an older app: upgraded, or failed with a reason (once per engine).
        await upgradeOutbox(this.options.db);
        this.outboxUpgraded = true;
      }
      await this.push();
      await this.pull();
      this.afterSync();
      this.failures = 0;
      this.lastSyncedAt = this.options.context().now().toISOString();
      const failed = await this.count('failed');
      if (failed > 0) {
        await this.report('error', `${failed} ${failed === 1 ? 'change' : 'changes'} could not be saved.`);
        return 'error';
      }
      // A change queued during this round asked for another: the status stays Syncing until that
      // one ends, never Synced with changes waiting (an import's thousands, say).
      if (!this.again) await this.report('synced', null);
      return 'synced';
    } catch (error) {
      return this.fail(error);
    }
  }

  private async fail(error: unknown): Promise<SyncOutcome> {
    if (error instanceof SyncTransportError && (error.kind === 'network' || error.kind === 'unavailable')) {
      this.scheduleRetry();
      await this.report('offline', null);
      return 'offline';
    }
    if (error instanceof SyncTransportError && error.kind === 'auth') {
      // No automatic retry: the next trigger (or a new sign-in) tries again.
      await this.report('error', SESSION_EXPIRED);
      return 'error';
    }
    // Anything else (a server error, an invalid pulled row, no space on the device for the answer's
    // rows: docs/faults.md, Storage full) is shown and retried with back-off.
    console.error('Sync failed', error);
    this.scheduleRetry();
    const message = isQuotaError(error) ? STORAGE_FULL : error instanceof Error ? error.message : String(error);
    await this.report('error', message);
    return 'error';
  }

  private push(): Promise<void> {
    const { options } = this;
    return pushQueue({
      db: options.db,
      push: (mutations) => this.withAuth(() => options.transport.push(mutations)),
      context: options.context,
      batchSize: options.batchSize,
      maxPushBytes: options.maxPushBytes,
      maxRequestBytes: options.maxRequestBytes,
      maxAttempts: options.maxAttempts,
      onRejected: options.onRejected,
    });
  }

  private afterSync(): void {
    try {
      this.options.onSynced?.();
    } catch (error) {
      console.warn('onSynced failed', error);
    }
  }

  /**
   * Pulls pages until the server has no more. Pages are asked for ahead of the writing (each as
   * soon as the one before arrives, up to two waiting: pages-ahead.ts), so the network and the
   * local writes overlap.
   */
  private async pull(): Promise<void> {
    const { db, transport } = this.options;
    const state = await readPullState(db);
    const quiet = this.quietCursor;
    const start = !state.reset && quiet && quiet.after === state.cursor ? quiet.cursor : state.cursor;
    const limit = this.options.pullLimit ?? (start === null ? SCRATCH_PAGE : PAGE);
    const pages = new PagesAhead(
      // A short first page: the writer starts on it while the full pages after it are on their way.
      (cursor, index) =>
        this.withAuth(() => transport.pull(cursor, index === 0 ? Math.min(limit, FIRST_PAGE) : limit)).then(
          checkPullAnswer,
        ),
      PAGES_AHEAD,
      start,
    );
    let clear = state.reset;
    let incremental = start !== null;
    let stored = state.cursor;
    for (let page = 0; page < 100_000; page += 1) {
      const answer = await pages.next();
      const ctx = this.options.context();
      // A pull from scratch's links are indexed for search after it (word-backlog.ts).
      const wrote = await applyPullPage(db, answer, { clear, ctx, incremental, deferWords: !incremental });
      if (wrote) stored = answer.cursor;
      this.quietCursor = wrote ? null : { after: stored, cursor: answer.cursor };
      if (!answer.more) {
        // A pull from scratch brought whole directories: the long ones' anchors are taken when idle.
        if (!incremental) void wantLongDirectories(db).catch(() => undefined);
        return;
      }
      clear = false;
      // A pull from scratch (no cursor, or reset by the server) goes on bringing rows the device
      // does not hold: its pages are written without reading what is held first.
      if (answer.reset) incremental = false;
    }
  }

  private async withAuth<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof SyncTransportError) || error.kind !== 'auth' || !this.options.refreshSession) throw error;
      try {
        await this.options.refreshSession();
      } catch {
        throw error;
      }
      return call();
    }
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    this.failures += 1;
    const delay = backoffDelay(this.failures, this.options.backoffMs ?? BACKOFF_MS);
    this.clearRetry();
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      void this.sync();
    }, delay);
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private count(status: OutboxRow['status']): Promise<number> {
    return this.options.db.outbox.where('status').equals(status).count();
  }

  private async report(state: SyncStatus['state'], message: string | null): Promise<void> {
    const [pending, failed] = await Promise.all([this.count('pending'), this.count('failed')]);
    this.counted = { pending, failed };
    this.emit(state, message);
  }

  /** The state now, with the outbox as last counted (nothing read). */
  private emit(state: SyncStatus['state'], message: string | null): void {
    const status: SyncStatus = { state, ...this.counted, message, lastSyncedAt: this.lastSyncedAt };
    (this.options.onStatus ?? setSyncStatus)(status);
  }
}
