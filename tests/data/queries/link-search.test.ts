/**
 * The token index (src/data/link-index.ts) and the searches that read it
 * (src/data/queries/link-search.ts): rows as the server sends them, written by a pull, a
 * mutation, or already stored when the database is upgraded.
 */
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { dbName, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { mutate } from '../../../src/data/mutate.ts';
import {
  directoryLinkIds,
  holdLink,
  matchHeld,
  recentLinks,
  SCAN_MAX,
  searchDirectory,
  searchLinks,
} from '../../../src/data/queries/link-search.ts';
import { dexieStores } from '../../../src/data/synced-tables.ts';
import { searchWords } from '../../../src/domain/search-words.ts';
import { searchList } from '../../../src/features/links/link-filters.ts';
import type { LinkRow } from '../../../src/data/rows.ts';
import { ME, makeDirectory, makeLink } from '../../support/builders.ts';
import { ctx, freshDb } from '../helpers.ts';

/** Server instants (microseconds, an offset) and a txid, as a pull stores them. */
const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.123456+00:00`;
const server = (minute: number) => ({ created_at: at(minute), updated_at: at(minute), txid: String(800 + minute) });

let db: LinkboardDb | undefined;
afterEach(() => db?.close());

const find = async (query: string, limit = 8, directoryId: string | null = null) =>
  (directoryId === null
    ? await searchLinks(db!, searchWords(query), limit)
    : await searchDirectory(db!, searchWords(query), limit, await directoryLinkIds(db!, directoryId))
  ).rows.map((row) => row.title);

const odd: LinkRow[] = [
  makeLink({
    id: 'nul',
    directory_id: 'd1',
    title: 'Null\u0000byte title',
    url: 'https://nul.example/a',
    ...server(1),
  }),
  makeLink({ id: 'half', directory_id: 'd1', title: 'Half \uD83D surrogate', url: 'https://x.example', ...server(2) }),
  makeLink({ id: 'accent', directory_id: 'd1', title: 'Crème brûlée', url: 'https://cooking.example', ...server(3) }),
  makeLink({ id: 'ip', directory_id: 'd1', title: '', url: 'http://192.168.1.20:8080/router/admin', ...server(4) }),
  makeLink({ id: 'puny', directory_id: 'd2', title: '', url: 'https://xn--bcher-kva.example/', ...server(5) }),
  makeLink({ id: 'bare', directory_id: 'd2', title: '', url: 'not a url at all', ...server(6) }),
  makeLink({
    id: 'tagged',
    directory_id: 'd2',
    title: 'Quarterly',
    url: 'https://docs.example/q3',
    tags: ['Finance', 'Reports'],
    notes: 'Ask Zoë',
    ...server(7),
  }),
];

describe('the token index', () => {
  it('finds rows as the server sends them by the start of any of their words', async () => {
    db = freshDb();
    await db.saved_links.bulkPut(odd);
    const entries = Reflect.get((await db.saved_links.get('accent'))!, '_words') as string[];
    expect(entries.map((entry) => entry.split(' ')[0])).toEqual(['creme', 'brulee', 'cooking', 'example']);
    expect(await find('byte')).toEqual(['Null\u0000byte title']);
    expect(await find('null by')).toEqual(['Null\u0000byte title']);
    expect(await find('surrogate')).toEqual(['Half \uD83D surrogate']);
    expect(await find('CRÈME')).toEqual(['Crème brûlée']);
    expect(await find('creme brul')).toEqual(['Crème brûlée']);
    expect(await find('192.168')).toEqual(['']);
    expect(await find('admin')).toEqual(['']);
    expect(await find('bcher')).toEqual(['']);
    expect(await find('url at')).toEqual(['']);
    expect(await find('fin rep zo')).toEqual(['Quarterly']);
    // Inside a word is not a match; a missing word is none.
    expect(await find('rulee')).toEqual([]);
    expect(await find('creme nothing')).toEqual([]);
  });

  it('lists the exact word first, newest first, then longer words, as the rule says', async () => {
    db = freshDb();
    const titles = ['React', 'Reading', 'React hooks', 'Ready', 'Read', 'Re', 'Other'];
    const rows = titles.map((title, i) => makeLink({ directory_id: 'd1', title, ...server(i) }));
    await db.saved_links.bulkPut(rows);
    for (const query of ['re', 'rea', 'read', 'react h', 'x']) {
      expect(await find(query, 20), query).toEqual(searchList(rows, query).map((row) => row.title));
    }
    expect(await find('rea', 20)).toEqual(['React hooks', 'React', 'Read', 'Reading', 'Ready']);
    expect(await find('rea', 2)).toEqual(['React hooks', 'React']);
  });

  it("lists one directory's matches from the index's keys, and says when more match than it was asked for", async () => {
    db = freshDb();
    await db.saved_links.bulkPut([
      ...Array.from({ length: 30 }, (_, i) => makeLink({ directory_id: 'big', title: `Guide ${i}`, ...server(i) })),
      makeLink({ directory_id: 'small', title: 'Guide elsewhere', ...server(59) }),
      makeLink({ directory_id: 'small', title: 'Guide hiking', ...server(0) }),
    ]);
    expect(await find('guide', 50, 'small')).toEqual(['Guide elsewhere', 'Guide hiking']);
    expect(await find('guide hik', 50, 'small')).toEqual(['Guide hiking']);
    const ids = await directoryLinkIds(db, 'big');
    const big = await searchDirectory(db, ['guide'], 10, ids);
    expect(big.rows.map((row) => row.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Guide ${29 - i}`));
    expect(big.more).toBe(true);
    expect((await searchDirectory(db, ['guide'], 30, ids)).more).toBe(false);
    // Anywhere: the newest first.
    expect(await find('guide', 2)).toEqual(['Guide elsewhere', 'Guide 29']);
  });

  it('matches links held in memory as the index lists them: the same first links, and whether more match', async () => {
    db = freshDb();
    const titles = [
      'React',
      'Reading',
      'React hooks',
      'Ready',
      'Read',
      'Re',
      'Other',
      'Crème brûlée',
      'Recipes réunis',
    ];
    // Two links at the same instant: equal entries, listed by id.
    const rows = titles.map((title, i) =>
      makeLink({ directory_id: 'd1', title, tags: i % 2 ? ['reference'] : [], ...server(i === 8 ? 3 : i) }),
    );
    await db.saved_links.bulkPut([...odd, ...rows]);
    // As stored: with their `_words`.
    const held = (await db.saved_links.toArray()).map(holdLink);
    const titlesOf = (found: readonly LinkRow[]) => found.map((row) => row.title);
    for (const query of ['re', 'rea', 'read', 'react h', 'ref re', 'x', 'creme', 'fin rep zo', '192.168', 'r']) {
      for (const limit of [1, 2, 3, 20]) {
        const words = searchWords(query);
        const index = await searchLinks(db, words, limit);
        const memory = matchHeld(held, words, limit);
        expect(titlesOf(memory.rows), `${query} ${limit}`).toEqual(titlesOf(index.rows));
        expect(memory.more, `${query} ${limit}`).toBe(index.more);
      }
    }
    expect(titlesOf(matchHeld(held, ['rea'], 3).rows)).toEqual(['React hooks', 'React', 'Read']);
    // A row without `_words` (not written through the index yet): its words computed.
    const unkeyed = holdLink(makeLink({ id: 'unkeyed', directory_id: 'd1', title: 'Reunion', ...server(9) }));
    expect(matchHeld([...held, unkeyed], ['reunion'], 5).rows.map((row) => row.id)).toEqual(['unkeyed']);
  });

  it('stops after reading SCAN_MAX entries when the other words rule most out, and says more may match', async () => {
    db = freshDb();
    await db.saved_links.bulkPut(
      Array.from({ length: SCAN_MAX + 10 }, (_, i) =>
        makeLink({ directory_id: 'd1', title: i === SCAN_MAX + 5 ? 'Common rare' : `Common ${i}`, ...server(0) }),
      ),
    );
    const found = await searchLinks(db, ['common', 'rare'], 8);
    expect(found.more).toBe(true);
    expect(found.rows.length).toBeLessThanOrEqual(1);
  });

  it('keys a link a mutation writes and changes, and forgets the old words', async () => {
    db = freshDb();
    await db.link_directories.put(makeDirectory({ id: 'd1', owner_id: ME }));
    const context = ctx({ tier: 'pro' });
    await mutate(
      db,
      'link.create',
      { id: 'n1', directory_id: 'd1', url: 'blog.example/post', title: 'First' },
      context,
    );
    expect(await find('first')).toEqual(['First']);
    await mutate(db, 'link.update', { id: 'n1', title: 'Second' }, context);
    expect(await find('first')).toEqual([]);
    expect(await find('second', 8, 'd1')).toEqual(['Second']);
    expect((await recentLinks(db, 3)).map((row) => row.title)).toEqual(['Second']);
  });

  it('sets the words of the links a version 9 database already holds', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(dbName(ME), { indexedDB, IDBKeyRange });
    old.version(9).stores({
      ...dexieStores(),
      saved_links: 'id, directory_id, [directory_id+created_at+id], broken_at, _urlKey',
      outbox: '++seq, &id, status',
      meta: 'key',
      counts: 'key',
    });
    // More than one page of the upgrade.
    const many = Array.from({ length: 2500 }, (_, i) =>
      makeLink({ directory_id: 'd1', title: `Old link ${i}`, ...server(i % 60) }),
    );
    await old.table('saved_links').bulkPut([...odd, ...many]);
    old.close();
    db = openUserDb(ME, { indexedDB, IDBKeyRange });
    expect(await find('creme')).toEqual(['Crème brûlée']);
    expect(await find('fin rep')).toEqual(['Quarterly']);
    expect(await db.saved_links.where('_words').startsWith('old ').count()).toBe(2500);
    expect(await db.saved_links.where('_words').startsWith('2499 ').count()).toBe(1);
    expect((await recentLinks(db, 1)).length).toBe(1);
  });
});
