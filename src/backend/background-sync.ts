/** Background Sync (docs/sync-protocol.md): the worker drains the queue even after the tab is closed. */
export const SYNC_TAG = 'linkboard-sync';

/** Messages the worker posts to its pages after a background sync. */
export type WorkerSyncMessage =
  { type: 'linkboard-sync-rejected'; message: string } | { type: 'linkboard-sync-done'; outcome: string };

interface SyncManagerLike {
  register(tag: string): Promise<void>;
}

/** Asks the worker to sync when the network is there; silently nothing without Background Sync. */
export async function requestBackgroundSync(): Promise<void> {
  try {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !navigator.serviceWorker.controller)
      return;
    const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & {
      sync?: SyncManagerLike;
    };
    await registration.sync?.register(SYNC_TAG);
  } catch {
    // Not supported or not allowed: the page's triggers (start, online, visible) drain the queue.
  }
}

export function isWorkerSyncMessage(data: unknown): data is WorkerSyncMessage {
  const type = (data as { type?: unknown } | null)?.type;
  return type === 'linkboard-sync-rejected' || type === 'linkboard-sync-done';
}
