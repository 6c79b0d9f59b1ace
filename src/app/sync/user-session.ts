/**
 * The signed-in user's local database and sync engine (docs/sync-protocol.md, Client): opened on sign-in,
 * closed on sign-out. Kept in a small store so the shell (status, retry, sign-out) and the
 * provider share one instance.
 */
import { create } from 'zustand';
import { isWorkerSyncMessage, requestBackgroundSync } from '../../backend/background-sync.ts';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import type { CurrentUser } from '../../backend/profile.ts';
import type { SyncTransport } from '../../backend/sync-transport.ts';
import { openUserDb, type LinkboardDb } from '../../data/db.ts';
import { evictedMessage, keepOutboxMarker } from '../../data/outbox-marker.ts';
import { askPersistentStorage } from '../../data/persistent-storage.ts';
import type { MutationContext } from '../../data/mutation-context.ts';
import { setMutatorsLoader } from '../../data/mutator-registry.ts';
import { createSyncEngine, mutationContextOf, refreshThrough } from '../../sync/create-engine.ts';
import type { SyncEngine } from '../../sync/engine.ts';
import { onPreviewAsked } from '../../data/preview-asks.ts';
import { linkPreviewDrainer } from '../../sync/link-previews.ts';
import { initialSyncStatus, setSyncStatus } from '../../sync/status-store.ts';
import { askLinkPreview } from '../../backend/link-preview.ts';
import { installSyncTriggers } from '../../sync/triggers.ts';
import { toast } from '../../ui/toast-store.ts';
import { afterScreenShown } from '../../ui/screen-shown.ts';
import { whenIdle } from '../../timing/when-idle.ts';
import { indexWordBacklog } from '../../data/word-backlog.ts';

export interface UserSession {
  userId: string;
  db: LinkboardDb;
  engine: SyncEngine;
  /** True once disposed (signed out, or its provider unmounted). */
  readonly disposed: boolean;
  dispose(): void;
}

export const useUserSession = create<{ session: UserSession | null }>(() => ({ session: null }));

/** Who mutates: the current user's id, e-mail, plan and time zone (the engine's rule, src/sync/create-engine.ts). */
export function mutationContextFor(user: CurrentUser): MutationContext {
  return mutationContextOf(user);
}

/** The current user as the store has it now, else the last one seen for this id. */
export function latestUser(initial: CurrentUser): () => CurrentUser {
  let last = initial;
  return () => {
    const now = useCurrentUser.getState().user;
    if (now && now.id === last.id) last = now;
    return last;
  };
}

// The mutators are a chunk of their own: a rebase before the first change loads it (mutator-registry.ts).
setMutatorsLoader(() => import('../../data/mutators.ts'));

/** supabase-js loads on the first sync call, outside the screens' first download. */
async function client() {
  return (await import('../../backend/supabase.ts')).supabase;
}

/**
 * The server's poke (poke.ts): loaded after the first paint, outside the dashboard's first download
 * (docs/bench.md).
 */
function installPoke(engine: SyncEngine, userId: string): () => void {
  if (typeof WebSocket === 'undefined') return () => undefined;
  let disposed = false;
  let off: (() => void) | null = null;
  void Promise.all([import('./poke.ts'), client()]).then(([{ startPoke }, supabase]) => {
    if (!disposed) off = startPoke(engine, userId, supabase);
  });
  return () => {
    disposed = true;
    off?.();
  };
}

function lazyTransport(): SyncTransport {
  let transport: Promise<SyncTransport> | null = null;
  const load = () =>
    (transport ??= Promise.all([client(), import('../../backend/sync-transport.ts')]).then(([supabase, module]) =>
      module.createSupabaseTransport(supabase),
    ));
  return {
    push: async (mutations) => (await load()).push(mutations),
    pull: async (cursor, limit) => (await load()).pull(cursor, limit),
  };
}

/** The longest the first sync waits for a screen to say it is shown. */
export const SYNC_START_LIMIT_MS = 1_000;

let rendered: UserSession | null = null;

/** Resolves when the main thread is next idle (at the latest after a second). */
const whenIdleAgain = () => new Promise<void>((resolve) => void whenIdle(resolve, 1_000, 16));

/**
 * The session the provider's first render starts (so the screen's first reads go out with its first
 * commit, not a render later): one per user at a time, so a render React discards and does again
 * reuses it rather than opening a second.
 */
export function renderedSession(userId: string, currentUser: () => CurrentUser): UserSession {
  if (rendered && rendered.userId === userId && !rendered.disposed) return rendered;
  rendered = startUserSession(userId, currentUser);
  return rendered;
}

export function startUserSession(userId: string, currentUser: () => CurrentUser): UserSession {
  const db = openUserDb(userId);
  let active = true;
  // The waiting changes noted outside IndexedDB, and told of when the browser cleared the
  // database before they were sent (src/data/outbox-marker.ts).
  const marker = typeof localStorage === 'undefined' ? null : keepOutboxMarker(db, userId, localStorage);
  void marker?.checked
    .then(({ lost }) => {
      if (active && lost > 0) toast(evictedMessage(lost), 'error');
    })
    .catch(() => undefined);
  // Asked once per device, so the browser keeps these waiting changes when space runs low.
  void askPersistentStorage().catch(() => undefined);
  // Asks for link previews go once the links are on the server: after each sync (src/sync/link-previews.ts).
  let drainPreviews: () => Promise<void> = async () => undefined;
  const engine = createSyncEngine({
    db,
    userId,
    transport: lazyTransport(),
    user: currentUser,
    refreshSession: refreshThrough(client),
    onRejected: (message) => {
      if (active) toast(message, 'error');
    },
    onStatus: (status) => {
      if (!active) return;
      setSyncStatus(status);
      if (status.state !== 'syncing') marker?.update();
    },
    onSynced: () => {
      if (!active) return;
      void drainPreviews().catch(() => undefined);
      indexWords();
    },
  });
  // The words of a pull from scratch's links are indexed when the page is idle (src/data/word-backlog.ts).
  const indexWords = () =>
    void indexWordBacklog(db, whenIdleAgain, () => active).catch((error: unknown) => console.error(error));
  drainPreviews = linkPreviewDrainer({
    db,
    ask: askLinkPreview,
    sync: () => void engine.sync().catch(() => undefined),
  });
  // The first sync and Realtime (supabase-js, the outbox, the network) wait for the screen's first
  // content to be painted, at most a second (src/ui/screen-shown.ts).
  let offTriggers: () => void = () => undefined;
  let offPoke: () => void = () => undefined;
  const cancelStart = afterScreenShown(() => {
    if (!active) return;
    offTriggers = installSyncTriggers(engine, db);
    // A pass a closed tab left unfinished goes on.
    indexWords();
    offPoke = installPoke(engine, userId);
  }, SYNC_START_LIMIT_MS);
  const offPreviews = onPreviewAsked(db, () => {
    if (active && navigator.onLine) void drainPreviews().catch(() => undefined);
  });
  const offBackground = db.onMutation(() => {
    marker?.update();
    void requestBackgroundSync();
  });

  // The worker synced in the background: show its rejections, refresh the status.
  const onWorkerMessage = (event: MessageEvent) => {
    if (!active || !isWorkerSyncMessage(event.data)) return;
    if (event.data.type === 'linkboard-sync-rejected') toast(event.data.message, 'error');
    else void engine.sync().catch(() => undefined);
  };
  const worker = typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : null;
  worker?.addEventListener('message', onWorkerMessage);

  return {
    userId,
    db,
    engine,
    get disposed() {
      return !active;
    },
    dispose() {
      if (!active) return;
      active = false;
      cancelStart();
      offTriggers();
      offPreviews();
      offPoke();
      offBackground();
      worker?.removeEventListener('message', onWorkerMessage);
      engine.stop();
      db.close();
      setSyncStatus(initialSyncStatus);
    },
  };
}
