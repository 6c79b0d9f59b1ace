/**
 * The anon key for the service worker: the page stores the key it was served with in the auth
 * store ('linkboard-auth'), and the worker, which has no document, reads it from there.
 */
import { authStore, type KeyValueStore } from './auth-idb.ts';
import { anonKey } from './config.ts';

const KEY = 'config:anon-key';

/** Called by the page once it boots. */
export async function rememberAnonKey(store: KeyValueStore = authStore, key: string = anonKey): Promise<void> {
  if (key && (await store.get<string>(KEY)) !== key) await store.set(KEY, key);
}

export async function workerAnonKey(store: KeyValueStore = authStore): Promise<string> {
  return anonKey || ((await store.get<string>(KEY)) ?? '');
}
