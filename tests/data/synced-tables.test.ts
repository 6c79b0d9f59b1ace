/** The registry of synced tables (src/data/synced-tables.ts) and what the client derives from it. */
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { expect, it } from 'vitest';
import { dbName, openUserDb } from '../../src/data/db.ts';
import { dropDirectories } from '../../src/data/access.ts';
import {
  InvalidRowError,
  checkRows,
  childrenOf,
  dexieStores,
  syncedTableNames,
  syncedTables,
  type SyncedTableSpec,
} from '../../src/data/synced-tables.ts';
import { Touched, groupTarget, rowTarget } from '../../src/data/targets.ts';
import { freshDb } from './helpers.ts';
import { ME, makeDirectory, makeLink, makeMember, makePoll, uuid } from '../support/builders.ts';

it('derives the Dexie stores the database was created with (a change needs a new Dexie version)', () => {
  expect(dexieStores()).toEqual({
    user_profiles: 'id',
    link_directories: 'id, owner_id',
    saved_links: 'id, [directory_id+created_at+id], broken_at, updated_at, _urlKey, *_words',
    directory_members: 'id, directory_id, user_email',
    calendar_events: 'id, series_id, starts_at, owner_id, [_kind+_at], _evOver, _evMade, _done, *_long',
    voting_posts: 'id, directory_id, created_by_id',
    user_votes: 'id, post_id, user_id',
    slot_answers: 'id, post_id, [post_id+user_id]',
    event_invitations: 'id, post_id, status',
  });
  const db = freshDb();
  expect(db.tables.map((table) => table.name).sort()).toEqual(
    [...syncedTableNames, 'counts', 'link_words', 'meta', 'outbox'].sort(),
  );
  expect(db.link_words.schema.indexes.map((index) => index.src)).toEqual(['*words']);
  expect(db.verno).toBe(12);
});

it("upgrades a version 1 database in place: its rows and outbox stay, and the links' window index is built", async () => {
  const indexedDB = new IDBFactory();
  const link = makeLink();
  const old = new Dexie(dbName(ME), { indexedDB, IDBKeyRange });
  old.version(1).stores({
    ...dexieStores(),
    saved_links: 'id, directory_id, owner_id',
    outbox: '++seq, &id, status',
    meta: 'key',
  });
  await old.table('saved_links').put(link);
  await old.table('outbox').add({ id: uuid(), name: 'link.create', args: {}, status: 'pending' });
  old.close();
  const db = openUserDb(ME, { indexedDB, IDBKeyRange });
  const found = await db.saved_links
    .where('[directory_id+created_at]')
    .between([link.directory_id, Dexie.minKey], [link.directory_id, Dexie.maxKey])
    .toArray();
  expect(found.map((row) => row.id)).toEqual([link.id]);
  expect(await db.outbox.count()).toBe(1);
  db.close();
});

it('purges through declared parents that come first and through indexed columns (alone or leading a compound index)', () => {
  syncedTableNames.forEach((name, index) => {
    const spec: SyncedTableSpec = syncedTables[name];
    if (typeof spec.purge !== 'object') return;
    expect(syncedTableNames.indexOf(spec.purge.with as never)).toBeLessThan(index);
    expect(syncedTables[spec.purge.with as never]).toBeDefined();
    const by = spec.purge.by;
    expect(spec.indexes.some((index) => index === by || index.startsWith(`[${by}+`))).toBe(true);
  });
  expect(childrenOf('link_directories').map((child) => child.table)).toEqual([
    'saved_links',
    'directory_members',
    'voting_posts',
  ]);
  expect(childrenOf('voting_posts')).toEqual([
    { table: 'user_votes', by: 'post_id' },
    { table: 'slot_answers', by: 'post_id' },
  ]);
});

it('drops a directory with its content, and notes what went for the rebase', async () => {
  const db = freshDb();
  const dir = makeDirectory();
  const kept = makeDirectory();
  const poll = makePoll({ directory_id: dir.id });
  const link = makeLink({ directory_id: dir.id });
  const vote = { id: uuid(), post_id: poll.id, option_index: 0, user_email: null, user_id: uuid() };
  const stamps = { created_at: dir.created_at, updated_at: dir.updated_at };
  await db.link_directories.bulkPut([dir, kept]);
  await db.saved_links.bulkPut([link, makeLink({ directory_id: kept.id })]);
  await db.directory_members.put(makeMember({ directory_id: dir.id }));
  await db.voting_posts.put(poll);
  await db.user_votes.put({ ...vote, ...stamps });
  const touched = new Touched();
  await db.transaction('rw', db.tables, () => dropDirectories(db, [dir.id], touched));
  expect(await db.link_directories.toArray()).toEqual([kept]);
  expect(await db.saved_links.count()).toBe(1);
  expect(await db.directory_members.count()).toBe(0);
  expect(await db.voting_posts.count()).toBe(0);
  expect(await db.user_votes.count()).toBe(0);
  expect(touched.hasAny([rowTarget('saved_links', link.id)])).toBe(true);
  expect(touched.hasAny([rowTarget('user_votes', vote.id)])).toBe(true);
  expect(touched.hasAny([groupTarget('voting_posts', 'directory_id', dir.id)])).toBe(true);
  expect(touched.hasAny([rowTarget('link_directories', kept.id)])).toBe(false);
});

it('checks rows as the server sends them: declared fields typed, unknown columns kept', () => {
  const link = { ...makeLink(), added_later: 1 };
  expect(checkRows('saved_links', [link])).toEqual([link]);
  expect(() => checkRows('saved_links', [{ ...link, is_favorite: 'yes' }])).toThrow(InvalidRowError);
  expect(() => checkRows('link_directories', [{ ...makeDirectory(), color: 'teal' }])).toThrow(/color/);
});
