import { createClient, navigatorLock, type SupabaseClient } from '@supabase/supabase-js';
import { anonKey, backendUrl } from './config.ts';
import { SESSION_STORAGE_KEY, sessionStorageAdapter } from './session-storage.ts';

/**
 * A supabase-js client whose session lives in IndexedDB. The page refreshes tokens on its own;
 * the service worker passes autoRefreshToken: false so it never keeps timers running. Token
 * refreshes are serialized across tabs and the worker by a Web Lock on the storage key.
 */
export function createLinkboardClient(options: { autoRefreshToken: boolean; anonKey?: string }): SupabaseClient {
  const hasLocks = typeof globalThis.navigator !== 'undefined' && !!globalThis.navigator.locks;
  return createClient(backendUrl, options.anonKey || anonKey, {
    auth: {
      persistSession: true,
      autoRefreshToken: options.autoRefreshToken,
      detectSessionInUrl: false,
      storageKey: SESSION_STORAGE_KEY,
      storage: sessionStorageAdapter,
      ...(hasLocks ? { lock: navigatorLock } : {}),
    },
  });
}
