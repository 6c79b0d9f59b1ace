/**
 * Opens the signed-in user's local database at the start of a boot, while the screen's chunks
 * load (docs/architecture.md, Boot without a fallback): the browser reads the database's files
 * from disk then, so Dexie's own open, once the session starts, finds them ready. A plain
 * IndexedDB connection, without a version: it never creates the database (a first boot aborts
 * the creation), lets an upgrade through (closing on `versionchange`) and closes after a while.
 */
import { dbName } from '../../data/db-name.ts';

const HOLD_MS = 10_000;

export function warmUserDb(userId: string, factory: IDBFactory | undefined = globalThis.indexedDB): void {
  if (!factory) return;
  try {
    const request = factory.open(dbName(userId));
    // No database yet (the session's first start creates it with its schema): create none.
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = (event) => event.preventDefault();
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => db.close();
      setTimeout(() => db.close(), HOLD_MS);
    };
  } catch {
    // Storage unavailable: the session reports it when it opens the database.
  }
}
