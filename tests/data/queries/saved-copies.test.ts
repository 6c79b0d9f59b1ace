import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { dbName, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { savedCopies } from '../../../src/data/queries/saved-copies.ts';
import { dexieStores } from '../../../src/data/synced-tables.ts';
import { mutate } from '../../../src/data/mutate.ts';
import { ME, OTHER, makeDirectory, makeLink, makeMember } from '../../support/builders.ts';
import { ctx, freshDb } from '../helpers.ts';

const me = { userId: ME, email: 'me@example.com' };
/** Rows as a pull stores them: server instants with microseconds and an offset, and a txid. */
const server = {
  created_at: '2026-12-31T22:59:00.123456+00:00',
  updated_at: '2026-12-31T22:59:00.123456+00:00',
  txid: '812',
};

let db: LinkboardDb | undefined;
afterEach(() => db?.close());

async function seeded(): Promise<LinkboardDb> {
  const opened = freshDb();
  await opened.link_directories.bulkPut([
    makeDirectory({ id: 'reading', name: 'Reading', owner_id: ME, ...server }),
    makeDirectory({ id: 'team', name: 'Team picks', owner_id: OTHER, ...server }),
    makeDirectory({ id: 'looking', name: 'Looking only', owner_id: OTHER, ...server }),
  ]);
  await opened.directory_members.bulkPut([
    makeMember({ directory_id: 'team', user_email: me.email, role: 'editor', ...server }),
    makeMember({ directory_id: 'looking', user_email: me.email, role: 'viewer', ...server }),
  ]);
  return opened;
}

describe('where a URL is already saved', () => {
  it('finds a link saved in another spelling through the index, with its directory', async () => {
    db = await seeded();
    await db.saved_links.bulkPut([
      makeLink({ id: 'l1', directory_id: 'reading', url: 'https://example.org/page', ...server }),
      makeLink({ id: 'l2', directory_id: 'reading', url: 'https://example.org/other', ...server }),
    ]);
    expect(await db.saved_links.where('_urlKey').equals('https://example.org/page').primaryKeys()).toEqual(['l1']);
    expect(await savedCopies(db, 'https://Example.org/page/?utm_source=x', me)).toEqual([
      { linkId: 'l1', directoryId: 'reading', directoryName: 'Reading' },
    ]);
    expect(await savedCopies(db, 'https://example.org/elsewhere', me)).toEqual([]);
    expect(await savedCopies(db, 'javascript:alert(1)', me)).toEqual([]);
    expect(await savedCopies(db, '', me)).toEqual([]);
  });

  it('counts directories the user owns or edits, not those shared with them to view', async () => {
    db = await seeded();
    const url = 'https://news.example/story';
    await db.saved_links.bulkPut([
      makeLink({ id: 'mine', directory_id: 'reading', url, ...server }),
      makeLink({ id: 'edited', directory_id: 'team', url: `${url}?fbclid=IwAR0`, owner_id: OTHER, ...server }),
      makeLink({ id: 'viewed', directory_id: 'looking', url, owner_id: OTHER, ...server }),
    ]);
    const found = await savedCopies(db, 'http://www.news.example/story/', me);
    expect(found.map((copy) => copy.directoryName).sort()).toEqual(['Reading', 'Team picks']);
  });

  it('keys a link written by a mutation, changed by one, and gone with it', async () => {
    db = await seeded();
    const context = ctx({ tier: 'pro' });
    await mutate(
      db,
      'link.create',
      { id: 'n1', directory_id: 'reading', url: 'blog.example/post', title: 'Post' },
      context,
    );
    expect((await savedCopies(db, 'https://blog.example/post?utm_medium=email', me)).map((c) => c.linkId)).toEqual([
      'n1',
    ]);
    await mutate(db, 'link.update', { id: 'n1', url: 'https://blog.example/moved' }, context);
    expect(await savedCopies(db, 'https://blog.example/post', me)).toEqual([]);
    expect((await savedCopies(db, 'blog.example/moved/', me)).map((c) => c.linkId)).toEqual(['n1']);
    await mutate(db, 'link.delete', { id: 'n1' }, context);
    expect(await savedCopies(db, 'https://blog.example/moved', me)).toEqual([]);
  });

  it('sets the keys on the links a version 6 database already holds', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(dbName(ME), { indexedDB, IDBKeyRange });
    old.version(6).stores({
      ...dexieStores(),
      saved_links: 'id, directory_id, [directory_id+created_at+id]',
      outbox: '++seq, &id, status',
      meta: 'key',
      counts: 'key',
    });
    await old.table('link_directories').put(makeDirectory({ id: 'reading', name: 'Reading', owner_id: ME, ...server }));
    await old
      .table('saved_links')
      .bulkPut([
        makeLink({ id: 'a', directory_id: 'reading', url: 'https://www.Example.org/page/?utm_source=x', ...server }),
        makeLink({ id: 'b', directory_id: 'reading', url: 'https://bücher.example/straße', ...server }),
        makeLink({ id: 'c', directory_id: 'reading', url: 'ftp://not.saved.today/x', ...server }),
      ]);
    old.close();
    db = openUserDb(ME, { indexedDB, IDBKeyRange });
    const stored = await db.saved_links.toArray();
    expect(stored.map((row) => [row.id, Reflect.get(row, '_urlKey')])).toEqual([
      ['a', 'https://example.org/page'],
      ['b', 'https://xn--bcher-kva.example/stra%C3%9Fe'],
      ['c', undefined],
    ]);
    expect((await savedCopies(db, 'example.org/page', me)).map((copy) => copy.linkId)).toEqual(['a']);
    expect((await savedCopies(db, 'https://xn--bcher-kva.example/stra%C3%9Fe', me)).map((c) => c.linkId)).toEqual([
      'b',
    ]);
  });
});
