/** The last loaded profile per user, kept in the auth store so the app boots offline (docs/sync-protocol.md). */
import { authStore, type KeyValueStore } from './auth-idb.ts';
import type { CurrentUser } from './profile.ts';

const key = (userId: string) => `profile:${userId}`;

export async function loadCachedProfile(userId: string, store: KeyValueStore = authStore): Promise<CurrentUser | null> {
  try {
    return (await store.get<CurrentUser>(key(userId))) ?? null;
  } catch {
    return null;
  }
}

export async function saveCachedProfile(user: CurrentUser, store: KeyValueStore = authStore): Promise<void> {
  try {
    await store.set(key(user.id), user);
  } catch (error) {
    console.warn('Could not cache the profile', error);
  }
}

export async function deleteCachedProfile(userId: string, store: KeyValueStore = authStore): Promise<void> {
  try {
    await store.delete(key(userId));
  } catch (error) {
    console.warn('Could not delete the cached profile', error);
  }
}
