/**
 * The one way to build a sync engine: the app (src/app/sync/user-session.ts)
 * and the worker (sync-worker/background-sync.ts) differ only in transport, session refresh and
 * where they report; who mutates, the time-zone fallback and the cross-tab lock are decided here.
 */
import type { MutationContext } from '../data/mutation-context.ts';
import { tierOf } from '../domain/plans.ts';
import { SyncEngine, type SyncEngineOptions } from './engine.ts';
import { createSyncLock } from './lock.ts';
import { safeTimeZone } from '../domain/event-times.ts';
import { appNow } from '../backend/server-clock.ts';

export { FALLBACK_TIME_ZONE } from '../domain/event-times.ts';

/** What the engine needs of the user, as the app's current user or the worker's cached profile has it. */
export interface SyncUser {
  id: string;
  email?: string | null;
  subscription_tier?: string | null;
  time_zone?: string | null;
}

/** Who mutates: the user's id, e-mail, plan and time zone (the profile's when known, else UTC). */
export function mutationContextOf(user: SyncUser): MutationContext {
  return {
    userId: user.id,
    email: user.email ?? '',
    tier: tierOf(user.subscription_tier),
    timeZone: safeTimeZone(user.time_zone),
    now: appNow,
  };
}

/** A client whose session can be refreshed (supabase-js). */
interface RefreshableAuth {
  auth: { refreshSession(): Promise<{ error: unknown }> };
}

/** refreshSession for the engine: refreshes through the client, throwing its error. */
export function refreshThrough(client: () => Promise<RefreshableAuth> | RefreshableAuth): () => Promise<void> {
  return async () => {
    const { error } = await (await client()).auth.refreshSession();
    if (error) throw error;
  };
}

export interface CreateEngineOptions extends Omit<SyncEngineOptions, 'context' | 'lock'> {
  userId: string;
  /** The user as known now; read at every sync (the plan or time zone may change). */
  user: () => SyncUser;
}

/** The engine of `userId`, under the user's Web Lock, shared by every tab and the worker. */
export function createSyncEngine({ userId, user, ...options }: CreateEngineOptions): SyncEngine {
  return new SyncEngine({
    ...options,
    context: () => mutationContextOf(user()),
    lock: createSyncLock(userId),
  });
}
