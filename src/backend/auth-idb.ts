/**
 * A tiny key-value store in its own IndexedDB database ('linkboard-auth'), readable from
 * the page and the service worker: the auth session and the last loaded profile live here.
 */
export const AUTH_DB_NAME = 'linkboard-auth';
const STORE = 'kv';

export interface KeyValueStore {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Opens the store lazily; `factory` is injectable for tests (fake-indexeddb). */
export function createKeyValueStore(factory: () => IDBFactory | undefined = () => globalThis.indexedDB): KeyValueStore {
  let opening: Promise<IDBDatabase> | null = null;

  const open = (): Promise<IDBDatabase> => {
    if (opening) return opening;
    const idb = factory();
    if (!idb) return Promise.reject(new Error('IndexedDB is not available'));
    opening = new Promise<IDBDatabase>((resolve, reject) => {
      const req = idb.open(AUTH_DB_NAME, 1);
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE);
      };
      req.onsuccess = () => {
        const db = req.result;
        // Another context deleting or upgrading the database: let go, reopen on next use.
        db.onversionchange = () => {
          db.close();
          opening = null;
        };
        db.onclose = () => {
          opening = null;
        };
        resolve(db);
      };
      req.onerror = () => {
        opening = null;
        reject(req.error);
      };
    });
    return opening;
  };

  const run = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await open();
    const tx = db.transaction(STORE, mode);
    const result = request(work(tx.objectStore(STORE)));
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error('Transaction aborted'));
    });
    return result;
  };

  return {
    get: <T>(key: string) => run('readonly', (store) => store.get(key) as IDBRequest<T | undefined>),
    set: async (key, value) => {
      await run('readwrite', (store) => store.put(value, key));
    },
    delete: async (key) => {
      await run('readwrite', (store) => store.delete(key));
    },
  };
}

/** The shared instance of this realm (page or worker). */
export const authStore: KeyValueStore = createKeyValueStore();
