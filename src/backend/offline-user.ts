/**
 * Offline boot (docs/sync-protocol.md): the user of the cached session with the last loaded profile, so
 * the app opens signed in without a network. Null when no session is stored.
 */
import { loadCachedProfile } from './profile-cache.ts';
import type { CurrentUser } from './profile.ts';
import { readStoredSessionUser } from './session-storage.ts';

export async function loadOfflineUser(
  readSession: typeof readStoredSessionUser = readStoredSessionUser,
  readProfile: typeof loadCachedProfile = loadCachedProfile,
): Promise<CurrentUser | null> {
  const session = await readSession();
  if (!session) return null;
  const cached = await readProfile(session.id);
  if (cached) return cached;
  return {
    id: session.id,
    email: session.email,
    username: session.username,
    full_name: null,
    bio: null,
    subscription_tier: null,
    time_zone: null,
  };
}
