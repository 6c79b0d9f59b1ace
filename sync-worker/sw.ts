/// <reference lib="webworker" />
/**
 * The service worker: precaches the app shell and serves it for every navigation, so the
 * app opens offline after one online visit. API paths always go to the network, except a saved
 * link's pictures (the link-image function), which are kept once seen so cards show them offline. The
 * Background Sync event drains the user's outbox even when no tab is open; a click on a reminder
 * notification opens the app at its calendar.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { SYNC_TAG, type WorkerSyncMessage } from '../src/backend/background-sync.ts';
import syncScript from 'virtual:linkboard-sync-script';
import type { runBackgroundSync } from './background-sync.ts';
import { handleNotificationClicks } from './notification-click.ts';
import { handlePushes } from './push-handler.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * The app's hashed files (/assets/, precached above under their own URL) are answered by the browser
 * straight from the cache, without a fetch event here for each of the thirty-odd modules a screen
 * loads (each 3-12 ms of this worker's thread, one after another, on a start): Chromium's static
 * routing, where the browser has it (docs/bench.md, The offline warm start). A file the cache lacks
 * goes to the network, as the precache route would send it.
 */
interface RouterInstallEvent extends ExtendableEvent {
  addRoutes?(rules: { condition: { urlPattern: { pathname: string } }; source: 'cache' }): Promise<void>;
}
self.addEventListener('install', (event) => {
  // The sync's script is stored with this worker now (a worker may import a new script only while
  // it installs), so a later start can import it from the stored copy, offline too.
  backgroundSync();
  const install = event as RouterInstallEvent;
  if (typeof install.addRoutes !== 'function') return;
  install.waitUntil(
    install.addRoutes({ condition: { urlPattern: { pathname: '/assets/*' } }, source: 'cache' }).catch(() => undefined),
  );
});

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/auth\//, /^\/rest\//, /^\/functions\//, /^\/sync\//, /^\/api\//, /^\/_mailbox/, /^\/_checkout\//],
  }),
);

// A link's icon and preview image (docs/architecture.md, Link previews): the address names the
// preview it shows (`v`), so a kept answer is never stale; at most 2,000 pictures for 30 days.
registerRoute(
  ({ url, request }) => request.destination === 'image' && url.pathname.endsWith('/functions/v1/link-image'),
  new CacheFirst({
    cacheName: 'link-pictures',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 2000, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/**
 * The sync (sync-bundle.ts), evaluated the first time a Background Sync event needs it, not on each
 * of the worker's starts: a warm start's navigation waits for the worker to start.
 */
function backgroundSync(): typeof runBackgroundSync {
  const scope = self as unknown as { linkboardBackgroundSync?: typeof runBackgroundSync };
  if (!scope.linkboardBackgroundSync) importScripts(syncScript);
  if (!scope.linkboardBackgroundSync) throw new Error(`${syncScript} did not load`);
  return scope.linkboardBackgroundSync;
}

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

async function tellPages(message: WorkerSyncMessage): Promise<void> {
  const pages = await self.clients.matchAll({ type: 'window' });
  for (const page of pages) page.postMessage(message);
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== SYNC_TAG) return;
  sync.waitUntil(
    Promise.resolve()
      .then(() => backgroundSync()((message) => void tellPages(message)))
      .then((outcome) => {
        // Still offline: fail, so the browser tries again later.
        if (outcome === 'offline') throw new Error('Sync postponed: offline');
      }),
  );
});

// Reminders shown by the page: a click opens the calendar.
handleNotificationClicks();

// Reminders pushed by the server while no tab is open (send-reminders).
handlePushes();

clientsClaim();
