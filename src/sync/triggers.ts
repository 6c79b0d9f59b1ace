/**
 * When to sync (docs/sync-protocol.md): after a mutation (on a later task, so the push never shares the
 * click's task or the paint of its change; several changes in a row make one sync), on `online`, when the tab becomes visible, and
 * every 30 s while visible. Also on `offline`: that attempt fails at once with a network error,
 * so the status badge says 'Offline' as soon as the device does, not at the next change. A mutation
 * made while the browser says it is offline starts no sync: it could only fail, and each failed
 * attempt reads the outbox and repaints the badge (`online` syncs them all). (The worker's
 * Background Sync `sync` event lives in sync-worker/.)
 */
import type { LinkboardDb } from '../data/db.ts';
import { realTimers, type TimerHandle, type Timers } from './timers.ts';

export const SYNC_INTERVAL_MS = 30_000;

interface EventSource {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export interface SyncTriggerOptions {
  window?: EventSource;
  document?: EventSource & { visibilityState: DocumentVisibilityState };
  timers?: Timers;
  intervalMs?: number;
  /** False when the device is known to be offline (navigator.onLine by default). */
  isOnline?: () => boolean;
}

const browserOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

/** Installs the triggers and syncs once; returns the function that removes them. */
export function installSyncTriggers(
  engine: { sync(): Promise<unknown> },
  db: LinkboardDb,
  options: SyncTriggerOptions = {},
): () => void {
  const win = options.window ?? (typeof window === 'undefined' ? undefined : window);
  const doc = options.document ?? (typeof document === 'undefined' ? undefined : document);
  const timers = options.timers ?? realTimers;
  const interval = options.intervalMs ?? SYNC_INTERVAL_MS;
  const isOnline = options.isOnline ?? browserOnline;
  let tick: TimerHandle | null = null;
  let soon: TimerHandle | null = null;

  const sync = () => void engine.sync().catch(() => undefined);
  const syncSoon = () => {
    if (soon !== null || !isOnline()) return;
    soon = timers.setTimeout(() => {
      soon = null;
      sync();
    }, 0);
  };
  const visible = () => !doc || doc.visibilityState === 'visible';

  const schedule = () => {
    if (tick !== null) timers.clearTimeout(tick);
    tick = null;
    if (!visible()) return;
    tick = timers.setTimeout(() => {
      tick = null;
      sync();
      schedule();
    }, interval);
  };
  const onVisibility = () => {
    if (visible()) sync();
    schedule();
  };

  const offMutation = db.onMutation(syncSoon);
  win?.addEventListener('online', sync);
  win?.addEventListener('offline', sync);
  doc?.addEventListener('visibilitychange', onVisibility);
  schedule();
  sync();

  return () => {
    offMutation();
    win?.removeEventListener('online', sync);
    win?.removeEventListener('offline', sync);
    doc?.removeEventListener('visibilitychange', onVisibility);
    if (tick !== null) timers.clearTimeout(tick);
    if (soon !== null) timers.clearTimeout(soon);
    tick = null;
    soon = null;
  };
}
