/**
 * The worker's side of Background Sync (docs/sync-protocol.md): with the session from IndexedDB it runs
 * one sync of the same engine the page uses, under the same Web Lock, so a closed tab's queue
 * still drains.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { Dexie } from 'dexie';
import type { WorkerSyncMessage } from '../src/backend/background-sync.ts';
import { loadCachedProfile } from '../src/backend/profile-cache.ts';
import { readStoredSessionUser } from '../src/backend/session-storage.ts';
import { workerAnonKey } from '../src/backend/anon-key.ts';
import { createLinkboardClient } from '../src/backend/supabase-client.ts';
import { createSupabaseTransport } from '../src/backend/sync-transport.ts';
import { dbName, openUserDb } from '../src/data/db.ts';
// A worker script cannot load a chunk: the mutators (a rebase re-applies queued changes) come with it.
import '../src/data/mutators.ts';
import { createSyncEngine, refreshThrough } from '../src/sync/create-engine.ts';
import type { SyncOutcome } from '../src/sync/engine.ts';

let client: SupabaseClient | null = null;

/** No timers in the worker: tokens are refreshed only when a call needs it. */
async function workerClient(): Promise<SupabaseClient> {
  client ??= createLinkboardClient({ autoRefreshToken: false, anonKey: await workerAnonKey() });
  return client;
}

export async function runBackgroundSync(
  notify: (message: WorkerSyncMessage) => void,
): Promise<SyncOutcome | 'signed-out'> {
  const supabase = await workerClient();
  const { data } = await supabase.auth.getSession();
  const stored = await readStoredSessionUser();
  const userId = data.session?.user.id ?? stored?.id;
  // Signed out (the database is deleted with the session): nothing to drain.
  if (!userId || !(await Dexie.exists(dbName(userId)))) return 'signed-out';

  const db = openUserDb(userId);
  try {
    const profile = (await db.user_profiles.get(userId)) ?? null;
    const cached = profile ? null : await loadCachedProfile(userId);
    const engine = createSyncEngine({
      db,
      userId,
      transport: createSupabaseTransport(supabase),
      user: () => ({
        id: userId,
        email: profile?.email ?? cached?.email ?? data.session?.user.email,
        subscription_tier: profile?.subscription_tier ?? cached?.subscription_tier,
        time_zone: profile?.time_zone || cached?.time_zone,
      }),
      refreshSession: refreshThrough(() => supabase),
      onRejected: (message) => notify({ type: 'linkboard-sync-rejected', message }),
      onStatus: () => undefined,
    });
    const outcome = await engine.sync();
    engine.stop();
    notify({ type: 'linkboard-sync-done', outcome });
    return outcome;
  } finally {
    db.close();
  }
}
