/**
 * A tiny key-value store in its own IndexedDB database ('linkboard-auth', store 'kv'), readable
 * from the page and the service worker: the auth session and the last loaded profile live here.
 * idb-keyval does the reads and writes; this file only opens the database (with an injectable
 * factory for tests, and letting go when another context deletes or upgrades it).
 */
import { del, get, promisifyRequest, set, type UseStore } from 'idb-keyval';

export const AUTH_DB_NAME = 'linkboard-auth';
const STORE = 'kv';

export interface KeyValueStore {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Opens the store lazily; `factory` is injectable for tests (fake-indexeddb). */
export function createKeyValueStore(factory: () => IDBFactory | undefined = () => globalThis.indexedDB): KeyValueStore {
  let opening: Promise<IDBDatabase> | null = null;

  const open = (): Promise<IDBDatabase> => {
    if (opening) return opening;
    const idb = factory();
    if (!idb) return Promise.reject(new Error('IndexedDB is not available'));
    const request = idb.open(AUTH_DB_NAME, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
    };
    opening = promisifyRequest(request).then(
      (db) => {
        // Another context deleting or upgrading the database: let go, reopen on next use.
        db.onversionchange = () => {
          db.close();
          opening = null;
        };
        db.onclose = () => {
          opening = null;
        };
        return db;
      },
      (error: unknown) => {
        opening = null;
        throw error;
      },
    );
    return opening;
  };

  const store: UseStore = async (mode, callback) => {
    const db = await open();
    return callback(db.transaction(STORE, mode).objectStore(STORE));
  };

  return {
    get: <T>(key: string) => get<T>(key, store),
    set: (key, value) => set(key, value, store),
    delete: (key) => del(key, store),
  };
}

/** The shared instance of this realm (page or worker). */
export const authStore: KeyValueStore = createKeyValueStore();
