/**
 * A database left at any version this app has had opens at today's schema with its rows kept: the
 * versions that only changed indexes are no longer declared (db.ts), so Dexie goes from the schema
 * the database has to the next version declared.
 */
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, expect, it } from 'vitest';
import { dbName, openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { withLinkKeys } from '../../src/data/link-index.ts';
import { dexieStores } from '../../src/data/synced-tables.ts';
import { ME, makeLink } from '../support/builders.ts';

const local = { outbox: '++seq, &id, status', meta: 'key', counts: 'key' };
const links = {
  5: 'id, directory_id, owner_id, [directory_id+created_at+id]',
  6: 'id, directory_id, [directory_id+created_at+id]',
  8: 'id, directory_id, [directory_id+created_at+id], broken_at, _urlKey',
  9: 'id, directory_id, [directory_id+created_at+id], broken_at, _urlKey',
  11: 'id, [directory_id+created_at+id], broken_at, updated_at, _urlKey, *_words',
};

/** Each store of the database as IndexedDB holds it: its key path and its indexes. */
async function storesOf(indexedDB: IDBFactory, name: string): Promise<Record<string, string>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('open failed'));
  });
  const names = [...db.objectStoreNames].sort();
  const tx = db.transaction(names, 'readonly');
  const out: Record<string, string> = {};
  for (const store of names.map((n) => tx.objectStore(n))) {
    const indexes = [...store.indexNames].sort().map((index) => {
      const { keyPath, multiEntry, unique } = store.index(index);
      return `${String(keyPath)}${multiEntry ? '*' : ''}${unique ? '&' : ''}`;
    });
    out[store.name] = `${String(store.keyPath)}${store.autoIncrement ? '++' : ''}: ${indexes.join(', ')}`;
  }
  db.close();
  return out;
}

let db: LinkboardDb | undefined;
afterEach(() => db?.close());

it.each(Object.entries(links))(
  'opens a version %s database at today’s schema, with its links',
  async (version, spec) => {
    const today = new IDBFactory();
    (await openUserDb(ME, { indexedDB: today, IDBKeyRange }).open()).close();
    const indexedDB = new IDBFactory();
    const old = new Dexie(dbName(ME), { indexedDB, IDBKeyRange });
    const { slot_answers, event_invitations, ...before9 } = dexieStores();
    const synced = Number(version) >= 9 ? { ...before9, slot_answers, event_invitations } : before9;
    old.version(Number(version)).stores({ ...synced, ...local, saved_links: spec });
    // A link as that version stored it: from version 10 on, with its keys (link-index.ts).
    const link = makeLink({ directory_id: 'd1', title: 'Kept through the upgrade' });
    await old.table('saved_links').put(Number(version) >= 10 ? withLinkKeys(link) : link);
    old.close();
    const opened = openUserDb(ME, { indexedDB, IDBKeyRange });
    db = opened;
    await opened.open();
    expect(await opened.saved_links.get(link.id)).toMatchObject({ id: link.id, title: 'Kept through the upgrade' });
    expect(await opened.saved_links.where('_words').startsWith('kept').count()).toBe(1);
    opened.close();
    expect(await storesOf(indexedDB, dbName(ME))).toEqual(await storesOf(today, dbName(ME)));
  },
);
