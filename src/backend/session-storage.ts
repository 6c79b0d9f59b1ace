/**
 * The supabase-js storage adapter (docs/sync-protocol.md, Client): the session lives in IndexedDB so the
 * service worker can use it too. A session left in localStorage by an older version is moved
 * over once, the first time its key is read.
 */
import { authStore, type KeyValueStore } from './auth-idb.ts';

/** The key supabase-js stores the session under (kept from the localStorage days). */
export const SESSION_STORAGE_KEY = 'linkboard-auth';

export interface AsyncStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

function legacyStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function createSessionStorage(
  store: KeyValueStore = authStore,
  legacy: () => Storage | null = legacyStorage,
): AsyncStorage {
  const prefix = 'session:';
  return {
    async getItem(key) {
      const value = await store.get<string>(prefix + key);
      if (typeof value === 'string') return value;
      const old = legacy();
      const migrated = old?.getItem(key) ?? null;
      if (migrated !== null && old) {
        await store.set(prefix + key, migrated);
        old.removeItem(key);
      }
      return migrated;
    },
    async setItem(key, value) {
      await store.set(prefix + key, value);
    },
    async removeItem(key) {
      await store.delete(prefix + key);
      legacy()?.removeItem(key);
    },
  };
}

export const sessionStorageAdapter: AsyncStorage = createSessionStorage();

/** The signed-in user as stored with the session, readable offline (no refresh, no network). */
export async function readStoredSessionUser(
  storage: AsyncStorage = sessionStorageAdapter,
  key: string = SESSION_STORAGE_KEY,
): Promise<{ id: string; email: string | null; username: string | null } | null> {
  try {
    const raw = await storage.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as {
      user?: { id?: string; email?: string; user_metadata?: { username?: string } };
      refresh_token?: string;
    };
    const user = parsed.user;
    if (!user?.id || !parsed.refresh_token) return null;
    return { id: user.id, email: user.email ?? null, username: user.user_metadata?.username ?? null };
  } catch {
    return null;
  }
}
