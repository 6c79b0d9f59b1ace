/**
 * The service worker's sync (the engine, Dexie, supabase-js, the mutators): a script of its own,
 * `sw-sync-<hash>.js`, built by vite.config.ts's `workerSyncBundle`. sw.js imports it when a Background
 * Sync event needs it, not on every start: evaluating it took a worker's start from a few
 * milliseconds to about a hundred, and a warm start's navigation waits for the worker to start.
 */
import { runBackgroundSync } from './background-sync.ts';

(self as unknown as { linkboardBackgroundSync: typeof runBackgroundSync }).linkboardBackgroundSync = runBackgroundSync;
