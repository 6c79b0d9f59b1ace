/**
 * The bench's handle on the running app (tests/bench, docs/bench.md). Loaded only by a bench
 * build (VITE_BENCH=1, see the one guarded import in main.tsx), so production builds carry
 * none of it. The bench drives the UI wherever it can; this exposes what a user cannot reach:
 * the session's sync engine (push, pull and no-op sync timed from inside the page), the app's
 * own mutate (to queue a thousand mutations, or to remove what a sample added), a reset of the
 * local data for a first pull, a raw Dexie bulkPut of the same rows for the first pull's ratio,
 * and a count of the rows each IndexedDB transaction writes (to check that a save is one
 * transaction).
 */
import type { MutationArgs, MutationName } from '../domain/mutation-contract.ts';

/** The app's modules, loaded on the first call (on a signed-in page they are loaded already), so a
 * visitor's page of a bench build loads nothing more than this file. */
const app = () =>
  Promise.all([
    import('dexie'),
    import('../backend/current-user-store.ts'),
    import('../data/mutate.ts'),
    import('../app/sync/user-session.ts'),
    import('../sync/lock.ts'),
    import('../sync/status-store.ts'),
  ]).then(([dexie, currentUser, mutate, userSession, lock, status]) => ({
    Dexie: dexie.Dexie,
    useCurrentUser: currentUser.useCurrentUser,
    mutate: mutate.mutate,
    mutateMany: mutate.mutateMany,
    mutationContextFor: userSession.mutationContextFor,
    useUserSession: userSession.useUserSession,
    createSyncLock: lock.createSyncLock,
    useSyncStatus: status.useSyncStatus,
  }));

async function session() {
  const current = (await app()).useUserSession.getState().session;
  if (!current) throw new Error('bench: no signed-in session');
  return current;
}

/** Network time (request start to last byte) of the RPC calls named, since `since`. */
function rpcTime(name: string, since: number): { ms: number; calls: number } {
  const entries = performance
    .getEntriesByType('resource')
    .filter((entry) => entry.name.includes(`/rest/v1/rpc/${name}`) && entry.startTime >= since);
  return { ms: entries.reduce((sum, entry) => sum + entry.duration, 0), calls: entries.length };
}

/** What each IndexedDB transaction wrote while watched: rows put or added, per object store. */
export interface WriteLog {
  transactions: { mode: IDBTransactionMode; writes: Record<string, number> }[];
}

/** Ends the current watch of writes (restoring IndexedDB's own put and add) and answers its log. */
let stopWatch: (() => WriteLog) | null = null;

const bench = {
  ready: async () => (await app()).useUserSession.getState().session !== null,

  /** One mutation through the app's own mutate, as the current user. */
  async mutate<N extends MutationName>(name: N, args: MutationArgs[N]): Promise<void> {
    const { db } = await session();
    const { useCurrentUser, mutate, mutationContextFor } = await app();
    const user = useCurrentUser.getState().user;
    if (!user) throw new Error('bench: no current user');
    await mutate(db, name, args, mutationContextFor(user));
  },

  /**
   * Writes rows into the local database through Dexie (its live queries see them), for a part whose
   * rows the server cannot store yet: they stay local (a pull does not remove them).
   */
  async put(table: string, rows: Record<string, unknown>[]): Promise<void> {
    const { db } = await session();
    await db.table(table).bulkPut(rows);
  },

  /** Deletes the series with an occurrence titled `title` (series.delete); answers how many occurrences it had. */
  async deleteSeries(title: string): Promise<number> {
    const { db } = await session();
    const found = await db.calendar_events.filter((row) => row.title === title && row.series_id !== null).first();
    if (!found?.series_id) throw new Error(`bench: no series titled ${title}`);
    const occurrences = await db.calendar_events.where('series_id').equals(found.series_id).count();
    await bench.mutate('series.delete', { series_id: found.series_id });
    return occurrences;
  },

  /**
   * Counts, until stopWatchingWrites(), the rows each IndexedDB transaction puts or adds, per
   * object store: IDBObjectStore's own put and add are wrapped for the watch only (Dexie looks
   * them up on every write), so no timed sample runs through the wrappers.
   */
  watchWrites(): void {
    if (stopWatch) throw new Error('bench: already watching writes');
    const proto = IDBObjectStore.prototype;
    const original = { put: proto.put, add: proto.add };
    const seen = new Map<IDBTransaction, Record<string, number>>();
    const count = (store: IDBObjectStore) => {
      const writes = seen.get(store.transaction) ?? {};
      writes[store.name] = (writes[store.name] ?? 0) + 1;
      seen.set(store.transaction, writes);
    };
    proto.put = function put(this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      count(this);
      return original.put.apply(this, args);
    };
    proto.add = function add(this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
      count(this);
      return original.add.apply(this, args);
    };
    stopWatch = () => {
      proto.put = original.put;
      proto.add = original.add;
      stopWatch = null;
      return { transactions: [...seen].map(([transaction, writes]) => ({ mode: transaction.mode, writes })) };
    };
  },
  stopWatchingWrites(): WriteLog {
    if (!stopWatch) throw new Error('bench: watchWrites first');
    return stopWatch();
  },

  /**
   * Add Link's duplicate check as a save runs it when the answer is not known yet
   * (src/data/queries/saved-copies.ts): the URL's key, then the index lookup and the directories.
   */
  async savedCopies(url: string): Promise<{ ms: number; found: number }> {
    const { db } = await session();
    const { useCurrentUser } = await app();
    const { savedCopies } = await import('../data/queries/saved-copies.ts');
    const user = useCurrentUser.getState().user;
    if (!user) throw new Error('bench: no current user');
    const start = performance.now();
    const copies = await savedCopies(db, url, { userId: user.id, email: user.email ?? '' });
    return { ms: performance.now() - start, found: copies.length };
  },

  /** Whether links of a pull from scratch still wait for their words (src/data/word-backlog.ts). */
  async wordBacklog(): Promise<boolean> {
    const { db } = await session();
    const { wordBacklogPending } = await import('../data/word-backlog.ts');
    return wordBacklogPending(db);
  },

  /** Rows of each local table. */
  async counts(): Promise<Record<string, number>> {
    const { db } = await session();
    const out: Record<string, number> = {};
    for (const table of db.tables) out[table.name] = await table.count();
    return out;
  },

  /** Queues `count` link.create mutations through the app's own mutate (offline, they stay queued). */
  async queueLinks(directoryId: string, count: number, prefix: string): Promise<number> {
    const { db } = await session();
    const { useCurrentUser, mutate, mutationContextFor } = await app();
    const user = useCurrentUser.getState().user;
    if (!user) throw new Error('bench: no current user');
    const start = performance.now();
    for (let i = 0; i < count; i += 1) {
      await mutate(
        db,
        'link.create',
        {
          id: crypto.randomUUID(),
          directory_id: directoryId,
          url: `https://push.test/${prefix}/${i}`,
          title: `${prefix} ${i}`,
        },
        mutationContextFor(user),
      );
    }
    return performance.now() - start;
  },

  /** Plain IndexedDB asked what `count` new links' saves ask, in this user's database (queue-floor.ts). */
  async queueFloor(directoryId: string, count: number, prefix: string): Promise<number> {
    const { db } = await session();
    const { queueFloor } = await import('./queue-floor.ts');
    return queueFloor(db.name, directoryId, count, prefix);
  },

  /**
   * Queues `count` link.create mutations spread over `directoryIds` in turn, through the app's
   * mutateMany in batches of 500 (an import's way: quick, untimed), for a push of thousands.
   */
  async queueLinksMany(directoryIds: string[], count: number, prefix: string): Promise<number> {
    const { db } = await session();
    const { useCurrentUser, mutateMany, mutationContextFor } = await app();
    const user = useCurrentUser.getState().user;
    if (!user) throw new Error('bench: no current user');
    const start = performance.now();
    for (let from = 0; from < count; from += 500) {
      const steps = Array.from({ length: Math.min(500, count - from) }, (_, k) => ({
        name: 'link.create' as const,
        args: {
          id: crypto.randomUUID(),
          directory_id: directoryIds[(from + k) % directoryIds.length]!,
          url: `https://push.test/${prefix}/${from + k}`,
          title: `${prefix} ${from + k}`,
        },
      }));
      await mutateMany(db, steps, mutationContextFor(user));
    }
    return performance.now() - start;
  },

  /** One engine.sync() timed from inside the page, with the RPC calls' share of it. */
  async sync(): Promise<{
    ms: number;
    outcome: string;
    pushMs: number;
    pullMs: number;
    pushes: number;
    pulls: number;
    outbox: number;
  }> {
    const { db, engine } = await session();
    performance.clearResourceTimings();
    const start = performance.now();
    const outcome = await engine.sync();
    const ms = performance.now() - start;
    const push = rpcTime('sync_push', start);
    const pull = rpcTime('sync_pull', start);
    return {
      ms,
      outcome,
      pushMs: push.ms,
      pullMs: pull.ms,
      pushes: push.calls,
      pulls: pull.calls,
      outbox: await db.outbox.count(),
    };
  },

  /**
   * Arms a watch for the next 'synced' status after the window's next `online` event (the
   * bench then turns the network back on): resolves with the time between the two.
   */
  async armOnline(): Promise<void> {
    const { useSyncStatus } = await app();
    const state = bench as unknown as { onlineWatch?: Promise<number> };
    state.onlineWatch = new Promise<number>((resolve) => {
      window.addEventListener(
        'online',
        () => {
          const start = performance.now();
          const off = useSyncStatus.subscribe((status) => {
            if (status.state === 'synced' && status.pending === 0) {
              off();
              resolve(performance.now() - start);
            }
          });
        },
        { once: true },
      );
    });
  },
  async onlineToSynced(): Promise<{ ms: number; pushMs: number; pushes: number; outbox: number }> {
    const state = bench as unknown as { onlineWatch?: Promise<number> };
    if (!state.onlineWatch) throw new Error('bench: armOnline first');
    const ms = await state.onlineWatch;
    const push = rpcTime('sync_push', 0);
    return { ms, pushMs: push.ms, pushes: push.calls, outbox: await (await session()).db.outbox.count() };
  },

  /** Empties the local database (every table, the cursor included): the next sync is a first pull. */
  async clearLocal(): Promise<void> {
    const { db, userId } = await session();
    const { createSyncLock } = await app();
    // Under the sync lock, so a sync the app started (the 30 s poll) cannot write its cursor after the clear.
    await createSyncLock(userId).run(() =>
      db.transaction('rw', db.tables, async () => {
        for (const table of db.tables) await table.clear();
      }),
    );
    // The first read after clearing thousands of rows waits for IndexedDB to settle them (150-250 ms
    // in Chromium): a new device's first pull starts on a fresh database, with nothing to settle.
    await Promise.all(db.tables.map((table) => table.limit(1).keys()));
  },

  /** A raw Dexie bulkPut of this user's local links into a fresh database with the same indexes. */
  async rawBulkPut(): Promise<{ ms: number; rows: number }> {
    const { db } = await session();
    const { Dexie } = await app();
    const rows = await db.saved_links.toArray();
    const name = `bench-raw-${crypto.randomUUID()}`;
    const raw = new Dexie(name);
    const { primKey, indexes } = db.saved_links.schema;
    raw.version(1).stores({ saved_links: [primKey.src, ...indexes.map((index) => index.src)].join(', ') });
    await raw.open();
    const start = performance.now();
    await raw.table('saved_links').bulkPut(rows);
    const ms = performance.now() - start;
    raw.close();
    await Dexie.delete(name);
    return { ms, rows: rows.length };
  },

  /**
   * Milliseconds readPlan takes for each phrase (docs/bench.md, typed plan), in this page, after
   * one untimed pass over them all (the module loaded, the parser's patterns compiled); `firstMs`
   * is the page's first reading, the one that compiles them.
   */
  async readPlanTimes(phrases: string[], timeZone: string): Promise<{ firstMs: number; samples: number[] }> {
    const { readPlan } = await import('../domain/plain-words.ts');
    const now = Date.now();
    const first = performance.now();
    readPlan(phrases[0] ?? '', { now, timeZone });
    const firstMs = performance.now() - first;
    for (const phrase of phrases) readPlan(phrase, { now, timeZone });
    const samples = phrases.map((phrase) => {
      const start = performance.now();
      readPlan(phrase, { now, timeZone });
      return performance.now() - start;
    });
    return { firstMs, samples };
  },

  /** A bare round trip to the stack (no database): the floor under a no-op sync. */
  async bareRoundTrip(): Promise<number> {
    const start = performance.now();
    const response = await fetch('/_health', { cache: 'no-store' });
    await response.text();
    return performance.now() - start;
  },
};

export type BenchHook = typeof bench;

declare global {
  interface Window {
    __linkboardBench?: BenchHook;
  }
}

performance.setResourceTimingBufferSize(100_000);
window.__linkboardBench = bench;
