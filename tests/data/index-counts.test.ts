import { whereGroup } from '../../src/data/group-range.ts';
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { keptCount, keptCounts } from '../../src/data/counts.ts';
import { KEY_SCAN_FROM } from '../../src/data/index-counts.ts';
import { dbName, openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import { dexieStores } from '../../src/data/synced-tables.ts';
import { ctx, freshDb } from './helpers.ts';
import { ME, OTHER, makeDirectory, makeLink, uuid } from '../support/builders.ts';

/** What the kept counts must equal: the rows counted one by one. */
async function truth(db: LinkboardDb) {
  const links = await db.saved_links.toArray();
  const by = (field: 'directory_id' | 'owner_id') => {
    const counts = new Map<string, number>();
    for (const link of links) counts.set(link[field], (counts.get(link[field]) ?? 0) + 1);
    return counts;
  };
  return { directory: by('directory_id'), owner: by('owner_id') };
}

async function expectKept(db: LinkboardDb) {
  const { directory, owner } = await truth(db);
  const kept = await keptCounts(db, 'saved_links', 'directory_id');
  // Every directory holding links has its count, and a count with no links is 0.
  for (const [id, n] of directory) expect(kept.get(id), id).toBe(n);
  for (const [id, n] of kept) expect(n, id).toBe(directory.get(id) ?? 0);
  for (const [id, n] of owner) expect(await keptCount(db, 'saved_links', 'owner_id', id)).toBe(n);
}

describe('kept counts per directory and owner', () => {
  it('follow a write of many rows (a pulled page), found through the keys the table holds', async () => {
    const db = freshDb();
    const [a, b] = [makeDirectory({ owner_id: ME }), makeDirectory({ owner_id: OTHER })];
    await db.link_directories.bulkPut([a, b]);
    const first = Array.from({ length: KEY_SCAN_FROM }, () => makeLink({ directory_id: a.id, owner_id: ME }));
    await db.saved_links.bulkPut(first);
    await expectKept(db);
    // The next page: a third of the rows held (some moved to another directory and owner), the rest new.
    const page = [
      ...first.slice(0, 400).map((link, i) => (i % 2 ? { ...link, directory_id: b.id, owner_id: OTHER } : link)),
      ...Array.from({ length: KEY_SCAN_FROM }, () => makeLink({ directory_id: b.id, owner_id: OTHER })),
    ];
    await db.saved_links.bulkPut(page);
    await expectKept(db);
    expect(await keptCount(db, 'saved_links', 'directory_id', b.id)).toBe(KEY_SCAN_FROM + 200);
    // Deleting many by key.
    await db.saved_links.bulkDelete(page.slice(0, 1200).map((link) => link.id));
    await expectKept(db);
  });

  it('follow every kind of write: mutations, bulk puts and deletes, moves, rewrites, range deletes, clears', async () => {
    const db = freshDb();
    const [a, b] = [makeDirectory({ owner_id: ME }), makeDirectory({ owner_id: OTHER })];
    await db.link_directories.bulkPut([a, b]);
    const links = Array.from({ length: 40 }, (_, i) =>
      makeLink({ directory_id: i % 3 === 0 ? b.id : a.id, owner_id: i % 3 === 0 ? OTHER : ME }),
    );
    // A pulled page: one bulkPut, then the same rows again (a rewrite counts nothing twice).
    await db.transaction('rw', db.saved_links, () => db.saved_links.bulkPut(links));
    await db.saved_links.bulkPut(links.slice(0, 10));
    await expectKept(db);

    // Mutations through the app's mutate.
    const created = uuid();
    await mutate(
      db,
      'link.create',
      { id: created, directory_id: a.id, url: 'a.test', title: 'A' },
      ctx({ tier: 'pro' }),
    );
    await mutate(db, 'link.delete', { id: links[1]!.id }, ctx({ tier: 'pro' }));
    await expectKept(db);

    // A move between directories, puts racing in one transaction, deletes by key and by query.
    const moved: LinkRow = { ...links[2]!, directory_id: b.id };
    await db.transaction('rw', db.saved_links, () =>
      Promise.all([
        db.saved_links.put(moved),
        db.saved_links.put(makeLink({ directory_id: a.id })),
        db.saved_links.put(makeLink({ directory_id: a.id })),
      ]),
    );
    await db.saved_links.bulkDelete([links[4]!.id, links[5]!.id, 'not-there']);
    await whereGroup(db.saved_links, 'directory_id', b.id).delete();
    await expectKept(db);
    expect(await keptCount(db, 'saved_links', 'directory_id', b.id)).toBe(0);

    // A failed transaction changes no count.
    await expect(
      db.transaction('rw', db.saved_links, async () => {
        await db.saved_links.put(makeLink({ directory_id: a.id }));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await expectKept(db);

    await db.saved_links.clear();
    expect(await keptCounts(db, 'saved_links', 'directory_id')).toEqual(new Map());
    expect(await keptCount(db, 'saved_links', 'owner_id', ME)).toBe(0);
  });

  it('are built from the rows already there when a version 2 database is upgraded', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(dbName(ME), { indexedDB, IDBKeyRange });
    const stores = { ...dexieStores(), outbox: '++seq, &id, status', meta: 'key' };
    old.version(2).stores(stores);
    const directory = uuid();
    await old
      .table('saved_links')
      .bulkPut([makeLink({ directory_id: directory }), makeLink({ directory_id: directory })]);
    old.close();
    const db = openUserDb(ME, { indexedDB, IDBKeyRange });
    expect(await keptCount(db, 'saved_links', 'directory_id', directory)).toBe(2);
    await expectKept(db);
    db.close();
  });
});
