/**
 * The note of waiting changes kept outside IndexedDB (src/data/outbox-marker.ts): in step with
 * the outbox, and on a start after the browser cleared the database, the changes it counted are
 * told as lost, once.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import {
  DB_TOKEN_KEY,
  clearMarker,
  evictedMessage,
  keepOutboxMarker,
  markerKey,
  readMarker,
  type OutboxMarker,
} from '../../src/data/outbox-marker.ts';
import { askPersistentStorage, PERSIST_ASKED_KEY } from '../../src/data/persistent-storage.ts';
import { ME, makeDirectory, uuid } from '../support/builders.ts';
import { watchTransactions } from '../support/watch-transactions.ts';
import { ctx } from './helpers.ts';

/** localStorage as the browser keeps it: strings by key. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const pro = ctx({ tier: 'pro' });
const dir = makeDirectory();
let idb: IDBFactory;
let storage: MemoryStorage;
let open: LinkboardDb[] = [];

function start(): LinkboardDb {
  const db = openUserDb(ME, { indexedDB: idb, IDBKeyRange });
  open.push(db);
  return db;
}

/** Waits for the marker to say `waiting` (it is written after the change, off its transaction). */
async function markerSays(waiting: number): Promise<OutboxMarker> {
  for (;;) {
    const marker = readMarker(storage, ME);
    if (marker?.waiting === waiting) return marker;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

beforeEach(() => {
  idb = new IDBFactory();
  storage = new MemoryStorage();
});
afterEach(() => {
  for (const db of open) db.close();
  open = [];
});

async function addLink(db: LinkboardDb, title: string) {
  return mutate(
    db,
    'link.create',
    { id: uuid(), directory_id: dir.id, url: `https://example.com/${title}`, title },
    pro,
  );
}

it('follows the outbox: how many changes wait, the newest one, and the database they are in', async () => {
  const db = start();
  await db.link_directories.put(dir);
  const keeper = keepOutboxMarker(db, ME, storage);
  expect(await keeper.checked).toMatchObject({ lost: 0 });
  await markerSays(0);
  const first = await addLink(db, 'a');
  keeper.update();
  await addLink(db, 'b');
  const last = await addLink(db, 'c');
  keeper.update();
  const marker = await markerSays(3);
  expect(marker.newest).toBe(last.created_at);
  expect(marker.db).toBe((await db.meta.get(DB_TOKEN_KEY))?.value);
  await db.outbox.where('id').equals(first.id).delete();
  keeper.update();
  await markerSays(2);
});

it('a start on the same database tells of nothing lost, and writes nothing to check it', async () => {
  const db = start();
  await db.link_directories.put(dir);
  const keeper = keepOutboxMarker(db, ME, storage);
  await addLink(db, 'a');
  keeper.update();
  await markerSays(1);
  db.close();
  const reopened = start();
  await reopened.open();
  const seen = watchTransactions(reopened);
  const again = keepOutboxMarker(reopened, ME, storage);
  expect((await again.checked).lost).toBe(0);
  await markerSays(1);
  expect(seen.writes).toEqual([]);
});

it('a start after the browser cleared the database tells of the changes that were waiting, once', async () => {
  const db = start();
  await db.link_directories.put(dir);
  const keeper = keepOutboxMarker(db, ME, storage);
  await addLink(db, 'a');
  await addLink(db, 'b');
  keeper.update();
  await markerSays(2);
  db.close();
  await db.delete();
  const fresh = start();
  const after = keepOutboxMarker(fresh, ME, storage);
  expect(await after.checked).toMatchObject({ lost: 2 });
  // The marker now counts the new database (empty): the next start tells of nothing.
  await markerSays(0);
  fresh.close();
  expect((await keepOutboxMarker(start(), ME, storage).checked).lost).toBe(0);
});

it('a first start, or one after sign-out cleared the note, tells of nothing', async () => {
  expect((await keepOutboxMarker(start(), ME, storage).checked).lost).toBe(0);
  storage.setItem(markerKey(ME), JSON.stringify({ db: 'gone', waiting: 4, newest: null }));
  clearMarker(storage, ME);
  idb = new IDBFactory();
  expect((await keepOutboxMarker(start(), ME, storage).checked).lost).toBe(0);
  // A note that is not one (damaged, another app's) is no evidence.
  storage.setItem(markerKey(ME), '{"waiting":"many"}');
  idb = new IDBFactory();
  expect((await keepOutboxMarker(start(), ME, storage).checked).lost).toBe(0);
});

it("says how many changes the browser's clearing lost", () => {
  expect(evictedMessage(1)).toBe(
    "1 change made on this device could not be sent: the browser cleared the app's storage.",
  );
  expect(evictedMessage(3)).toBe(
    "3 changes made on this device could not be sent: the browser cleared the app's storage.",
  );
});

it('asks the browser to keep the data once per device', async () => {
  let asked = 0;
  let granted = false;
  const manager = {
    persisted: async () => granted,
    persist: async () => {
      asked += 1;
      return false;
    },
  } as unknown as StorageManager;
  expect(await askPersistentStorage(manager, storage)).toBe(false);
  expect(await askPersistentStorage(manager, storage)).toBe(false);
  expect(asked).toBe(1);
  expect(storage.getItem(PERSIST_ASKED_KEY)).not.toBeNull();
  granted = true;
  expect(await askPersistentStorage(manager, storage)).toBe(true);
  expect(asked).toBe(1);
  expect(await askPersistentStorage(undefined, storage)).toBeNull();
});
