import { useCallback, useState } from 'react';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { deleteCachedProfile } from '../../backend/profile-cache.ts';
import { deleteUserDb } from '../../data/db.ts';
import { clearMarker } from '../../data/outbox-marker.ts';
import { useUserSession } from './user-session.ts';

export function unsyncedMessage(count: number): string {
  return count === 1
    ? 'You have 1 change that has not been synced. Sign out and discard it?'
    : `You have ${count} changes that have not been synced. Sign out and discard them?`;
}

const loadAuth = () => import('../../backend/auth.ts');

/** Loads what sign-out needs while the network is there, so it also works offline. */
export function preloadSignOut(): void {
  void loadAuth().catch(() => undefined);
}

/** Closes the user's database, deletes it and the cached profile, then signs out (docs/product.md, Application shell). */
export async function signOutAndForget(): Promise<void> {
  const session = useUserSession.getState().session;
  const userId = session?.userId ?? useCurrentUser.getState().user?.id ?? null;
  if (session) {
    session.dispose();
    useUserSession.setState({ session: null });
  }
  if (userId) {
    await deleteUserDb(userId).catch((error: unknown) => console.warn('Could not delete the local data', error));
    // Deleted on purpose: nothing to tell of at the next sign-in.
    clearMarker(localStorage, userId);
    await deleteCachedProfile(userId);
  }
  const { signOutAndLeave } = await loadAuth();
  await signOutAndLeave();
}

/** Sign-out that asks first when changes are still waiting in the outbox (docs/sync-protocol.md). */
export function useSignOut() {
  const [waiting, setWaiting] = useState<number | null>(null);
  const request = useCallback(async () => {
    const session = useUserSession.getState().session;
    const count = session ? await session.db.outbox.count().catch(() => 0) : 0;
    if (count > 0) setWaiting(count);
    else await signOutAndForget();
  }, []);
  return {
    /** Unsynced changes when the question is open, else null. */
    waiting,
    request: () => void request(),
    confirm: () => {
      setWaiting(null);
      void signOutAndForget();
    },
    cancel: () => setWaiting(null),
  };
}
