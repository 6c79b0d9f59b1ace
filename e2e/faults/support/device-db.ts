/** The device's own IndexedDB, read and written from the page as the app (or an older app) would. */
import type { Page } from '@playwright/test';
import { storedRows, userDbName } from '../../support/workspace.ts';

export interface StoredOutboxEntry {
  seq?: number;
  id: string;
  name: string;
  status: string;
  last_error?: string;
  version?: number;
  args: Record<string, unknown>;
}

async function dbName(page: Page): Promise<string> {
  const name = await userDbName(page);
  if (!name) throw new Error("the user's database is not there");
  return name;
}

/** Adds `entries` to the outbox as they are, in one transaction (the shape is the caller's). */
export async function putOutboxEntries(page: Page, entries: Record<string, unknown>[]): Promise<void> {
  const name = await dbName(page);
  await page.evaluate(
    ({ name, entries }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('outbox', 'readwrite');
          for (const entry of entries) tx.objectStore('outbox').add(entry);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error ?? new Error('write failed'));
        };
      }),
    { name, entries },
  );
}

/** The outbox as stored, in queue order. */
export async function readOutbox(page: Page): Promise<StoredOutboxEntry[]> {
  return storedRows<StoredOutboxEntry>(page, 'outbox', await dbName(page));
}
