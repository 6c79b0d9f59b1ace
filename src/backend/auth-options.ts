import { navigatorLock, type GoTrueClientOptions } from '@supabase/auth-js';
import { SESSION_STORAGE_KEY, sessionStorageAdapter } from './session-storage.ts';

/**
 * The auth client's options, the same for the page's client and the service worker's: the
 * session lives in IndexedDB (session-storage.ts), token refreshes are serialized across tabs and
 * the worker by a Web Lock on the storage key.
 */
export function authOptions(autoRefreshToken: boolean): Partial<GoTrueClientOptions> {
  const hasLocks = typeof globalThis.navigator !== 'undefined' && !!globalThis.navigator.locks;
  return {
    persistSession: true,
    autoRefreshToken,
    detectSessionInUrl: false,
    storageKey: SESSION_STORAGE_KEY,
    storage: sessionStorageAdapter,
    ...(hasLocks ? { lock: navigatorLock } : {}),
  };
}
