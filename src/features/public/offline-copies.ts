/**
 * The last copy of each public page a visitor saw, kept in this browser's IndexedDB, so the
 * page still shows offline (with the time it is from) instead of claiming it is private or
 * missing. A password-protected directory is kept only once unlocked in this browser.
 */
const DB_NAME = 'linkboard-public';
const STORE = 'copies';
/** The oldest copies go first beyond this many. */
export const MAX_COPIES = 50;

export interface OfflineCopy<T> {
  key: string;
  data: T;
  /** When the copy was seen (ISO). */
  savedAt: string;
}

export const directoryKey = (id: string) => `directory:${id.toLowerCase()}`;
export const profileKey = (username: string) => `profile:${username.toLowerCase()}`;

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') return reject(new Error('IndexedDB is not available'));
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(STORE, { keyPath: 'key' }).createIndex('savedAt', 'savedAt');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('Could not open the offline copies'));
  });
}

/** Runs one request in a transaction and closes the database after it. */
async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request?.result as T);
      tx.onerror = () => reject(tx.error ?? new Error('Offline copy transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('Offline copy transaction aborted'));
    });
  } finally {
    db.close();
  }
}

export async function readCopy<T>(key: string): Promise<OfflineCopy<T> | null> {
  try {
    return ((await run('readonly', (store) => store.get(key))) as OfflineCopy<T> | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Keeps `data` as the copy under `key`, dropping the oldest copies beyond MAX_COPIES. */
export async function saveCopy<T>(key: string, data: T, now = new Date()): Promise<void> {
  try {
    await run('readwrite', (store) => {
      store.put({ key, data, savedAt: now.toISOString() } satisfies OfflineCopy<T>);
      const count = store.count();
      count.onsuccess = () => {
        let extra = count.result - MAX_COPIES;
        if (extra <= 0) return;
        store.index('savedAt').openCursor().onsuccess = (event) => {
          const cursor = (event.target as IDBRequest<IDBCursorWithValue | null>).result;
          if (!cursor || extra-- <= 0) return;
          cursor.delete();
          cursor.continue();
        };
      };
    });
  } catch {
    // A copy is a convenience: private browsing or a full disk only loses it.
  }
}

export async function deleteCopy(key: string): Promise<void> {
  try {
    await run('readwrite', (store) => store.delete(key));
  } catch {
    // Nothing kept, nothing to delete.
  }
}
