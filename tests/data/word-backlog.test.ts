/**
 * The words of a pull from scratch's links (src/data/word-backlog.ts): stored without `_words`,
 * indexed by the pass into `link_words`, and found by the searches through both indexes in the
 * token index's order (src/data/queries/link-search.ts). Rows as a pull stores them.
 */
import { Dexie, type ObservabilitySet } from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import {
  directoryLinkIds,
  holdLink,
  matchHeld,
  searchDirectory,
  searchLinks,
} from '../../src/data/queries/link-search.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import {
  indexWordBacklog,
  indexWordPage,
  readWordPage,
  splitLinkWordEntry,
  STEP_ROWS,
  wordBacklogPending,
  writeWordPage,
} from '../../src/data/word-backlog.ts';
import { searchWords } from '../../src/domain/search-words.ts';
import type { PullAnswer } from '../../src/backend/sync-transport.ts';
import { applyPullPage } from '../../src/sync/apply-pull.ts';
import { ME, makeDirectory, makeLink } from '../support/builders.ts';
import { ctx, freshDb } from './helpers.ts';

const pro = ctx({ tier: 'pro' });
let db: LinkboardDb;
beforeEach(() => {
  db = freshDb();
});
afterEach(() => db.close());

/** Server instants (microseconds, an offset) and a txid, as a pull stores them. */
const at = (second: number) =>
  `2026-03-01T10:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.123456+00:00`;
const server = (second: number) => ({ created_at: at(second), updated_at: at(second), txid: String(800 + second) });

const dirA = makeDirectory({ id: '00000000-0000-4000-8000-00000000000a', owner_id: ME, name: 'A' });
const dirB = makeDirectory({ id: '00000000-0000-4000-8000-00000000000b', owner_id: ME, name: 'B' });

/** Link `i`: titles sharing words across links, some in each directory, ids not in time order. */
function link(i: number): LinkRow {
  const id = `00000000-0000-4000-8000-${String((i * 7919) % 100_000).padStart(12, '0')}`;
  return makeLink({
    id,
    directory_id: i % 3 === 0 ? dirB.id : dirA.id,
    owner_id: ME,
    title: `Report ${i % 2 === 0 ? 'alpha' : 'alphabet'} part${i % 5}`,
    url: `https://site${i % 4}.example/page/${i}`,
    tags: i % 7 === 0 ? ['quarterly'] : [],
    ...server(i),
  });
}

const page = (rows: LinkRow[], overrides: Partial<PullAnswer> = {}): PullAnswer => ({
  cursor: '9',
  more: false,
  reset: false,
  changes: { link_directories: [dirA, dirB], saved_links: rows } as PullAnswer['changes'],
  purge: { directory_ids: [] },
  ...overrides,
});

/** A pull from scratch's page, as the engine applies one. */
const pullFromScratch = (rows: LinkRow[], clear = false) =>
  applyPullPage(db, page(rows), { clear, ctx: pro, incremental: false, deferWords: true });

const idle = () => Promise.resolve();

function stripWords(row: LinkRow): LinkRow {
  const bare = { ...row } as Record<string, unknown>;
  delete bare._words;
  return bare as unknown as LinkRow;
}

/** What the token index's order gives over every stored link: matchHeld over them all, words from their fields. */
async function reference(query: string, limit: number, directoryId?: string) {
  const all = (await db.saved_links.toArray()).filter((row) => !directoryId || row.directory_id === directoryId);
  return matchHeld(
    all.map((row) => holdLink(stripWords(row))),
    searchWords(query),
    limit,
  );
}

const ids = (rows: readonly LinkRow[]) => rows.map((row) => row.id);

/** The ranges of an observability set's part (Dexie's interval tree: `from`, `to`, `l`, `r`). */
function rangesIn(tree: unknown): number {
  if (typeof tree !== 'object' || tree === null || !('from' in tree)) return 0;
  const node = tree as { l?: unknown; r?: unknown };
  return 1 + rangesIn(node.l) + rangesIn(node.r);
}

/** The steps `link_words` holds rows of (its rows' keys without their number). */
async function stepKeys(): Promise<string[]> {
  const keys = (await db.link_words.toCollection().primaryKeys()) as string[];
  return [...new Set(keys.map((key) => key.slice(0, key.lastIndexOf(' '))))];
}

/** The links `link_words` holds entries of (sorted). */
async function indexedIds(): Promise<string[]> {
  const steps = await db.link_words.toArray();
  return [...new Set(steps.flatMap((step) => step.words.map((key) => splitLinkWordEntry(key).id)))].sort();
}

describe('a pull from scratch', () => {
  it('stores its links without words, and the pass indexes them without writing a link again', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => link(i + 1));
    await pullFromScratch(rows, true);
    const stored = await db.saved_links.toArray();
    expect(stored).toHaveLength(30);
    expect(stored.every((row) => !('_words' in row) && typeof Reflect.get(row, '_urlKey') === 'string')).toBe(true);
    expect(await wordBacklogPending(db)).toBe(true);
    // Not indexed yet: neither index has them.
    expect((await searchLinks(db, searchWords('alpha'), 50)).rows).toEqual([]);

    const mutated: ObservabilitySet[] = [];
    const listener = (parts: ObservabilitySet) => mutated.push(parts);
    Dexie.on('storagemutated', listener);
    try {
      await indexWordBacklog(db, idle);
    } finally {
      Dexie.on('storagemutated').unsubscribe(listener);
    }
    expect(await wordBacklogPending(db)).toBe(false);
    expect(await indexedIds()).toEqual(ids(rows).sort());
    // One step, its entries in a few rows, not one a link.
    expect(await stepKeys()).toHaveLength(1);
    expect(await db.link_words.count()).toBeLessThanOrEqual(STEP_ROWS);
    // The pass woke no reader of the links (a screen's window, its counts): only the words' readers.
    const touched = mutated.flatMap((parts) => Object.keys(parts));
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.filter((part) => part.includes('/saved_links/'))).toEqual([]);
    // The rows are as the pull stored them.
    expect(await db.saved_links.toArray()).toEqual(stored);
  });

  it('writes a step of many entries as rows enough that live queries are told ranges, not each entry', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => link(i + 1));
    await pullFromScratch(rows, true);
    const told: ObservabilitySet[] = [];
    const listener = (parts: ObservabilitySet) => told.push(parts);
    Dexie.on('storagemutated', listener);
    try {
      while (await indexWordPage(db, 120));
    } finally {
      Dexie.on('storagemutated').unsubscribe(listener);
    }
    const entries = (await db.link_words.toArray()).flatMap((row) => row.words);
    expect(entries.length).toBeGreaterThan(STEP_ROWS * 4);
    expect(await db.link_words.count()).toBe(STEP_ROWS);
    // Every entry once, all the step's links.
    expect(new Set(entries).size).toBe(entries.length);
    expect(await indexedIds()).toEqual(ids(rows).sort());
    // The words' index was told as a range or two, not as each of its hundreds of entries.
    const wordsPart = told.flatMap((parts) =>
      Object.entries(parts).filter(([part]) => part.endsWith('/link_words/words')),
    );
    expect(wordsPart.length).toBeGreaterThan(0);
    for (const [, ranges] of wordsPart) expect(rangesIn(ranges)).toBeLessThanOrEqual(2);
  });

  it('is found by both searches in the order the token index gives, across both indexes and read limits', async () => {
    // Half the links pulled from scratch (deferred), half written by a later pull (their own words).
    const pulled = Array.from({ length: 40 }, (_, i) => link(2 * i + 1));
    const later = Array.from({ length: 40 }, (_, i) => link(2 * i + 2));
    await pullFromScratch(pulled, true);
    await indexWordBacklog(db, idle);
    await applyPullPage(db, page(later), { clear: false, ctx: pro, incremental: true });
    expect((await db.saved_links.toArray()).filter((row) => '_words' in row)).toHaveLength(40);
    for (const query of ['alpha', 'alphabet', 'report part2', 'site3', 'quarterly', 'part']) {
      for (const limit of [1, 3, 7, 200]) {
        const want = await reference(query, limit);
        const got = await searchLinks(db, searchWords(query), limit);
        expect({ query, limit, ids: ids(got.rows), more: got.more }).toEqual({
          query,
          limit,
          ids: ids(want.rows),
          more: want.more,
        });
        const inA = await reference(query, limit, dirA.id);
        const gotA = await searchDirectory(db, searchWords(query), limit, await directoryLinkIds(db, dirA.id));
        expect({ query, limit, ids: ids(gotA.rows) }).toEqual({ query, limit, ids: ids(inA.rows) });
        expect(gotA.more).toBe(inA.more);
      }
    }
  });

  it('finds a link by what it says now: an edit, a deletion and the words an edit took away', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => link(i + 1));
    await pullFromScratch(rows, true);
    await indexWordBacklog(db, idle);
    const [edited, deleted] = [rows[0]!, rows[1]!];
    await mutate(db, 'link.update', { id: edited.id, title: 'Zebra crossing' }, pro);
    await mutate(db, 'link.delete', { id: deleted.id }, pro);
    const found = async (query: string) => ids((await searchLinks(db, searchWords(query), 50)).rows);
    expect(await found('zebra')).toEqual([edited.id]);
    expect(await found('report')).not.toContain(edited.id);
    expect(await found('report')).not.toContain(deleted.id);
    expect(await found('report')).toHaveLength(4);
  });

  it('walks the links again when a page written without words comes during the pass', async () => {
    const first = Array.from({ length: 12 }, (_, i) => link(i + 1));
    await pullFromScratch(first, true);
    // Two steps of 5: the pass is past the first ids.
    expect(await indexWordPage(db, 5)).toBe(true);
    expect(await indexWordPage(db, 5)).toBe(true);
    // The next page of the pull brings links whose ids sort before where the pass is.
    const second = Array.from({ length: 12 }, (_, i) => link(i + 101));
    await pullFromScratch(second);
    while (await indexWordPage(db, 5));
    expect(await wordBacklogPending(db)).toBe(false);
    expect(await indexedIds()).toEqual(ids([...first, ...second]).sort());
    // The steps of the round the second page ended are gone.
    expect(await stepKeys()).toHaveLength(5);
  });

  it('a step that read before a page written without words came writes nothing, and the pass starts again', async () => {
    const first = Array.from({ length: 12 }, (_, i) => link(i + 1));
    await pullFromScratch(first, true);
    expect(await indexWordPage(db, 5)).toBe(true);
    const read = (await readWordPage(db, 5))!;
    const second = Array.from({ length: 12 }, (_, i) => link(i + 101));
    await pullFromScratch(second);
    // The read step's page is not written, and where the pass is stays where the new page put it.
    expect(await writeWordPage(db, read)).toBe(true);
    expect(await indexedIds()).toHaveLength(5);
    while (await indexWordPage(db, 5));
    expect(await indexedIds()).toHaveLength(24);
  });

  it('places a match of one index after what the other, read short, has not reached', async () => {
    // Thirty links with their own words, the newest first; one older of them has 'zz'.
    const own = Array.from({ length: 30 }, (_, i) =>
      makeLink({
        directory_id: dirA.id,
        owner_id: ME,
        title: `Report ${i === 10 ? 'zz' : 'plain'}`,
        ...server(100 + i),
      }),
    );
    // Two of a pull from scratch, older than all of them, with 'zz'.
    const pulled = [50, 40].map((second) =>
      makeLink({ directory_id: dirA.id, owner_id: ME, title: 'Report zz', ...server(second) }),
    );
    await pullFromScratch(pulled, true);
    await indexWordBacklog(db, idle);
    await db.saved_links.bulkPut(own);
    // The first read of the own index (nine entries) holds no 'zz': the pulled ones must wait for it.
    const first = await searchLinks(db, searchWords('report zz'), 1);
    expect(ids(first.rows)).toEqual([own[10]!.id]);
    expect(first.more).toBe(true);
    const inA = await searchDirectory(db, searchWords('report zz'), 1, await directoryLinkIds(db, dirA.id));
    expect(ids(inA.rows)).toEqual([own[10]!.id]);
  });

  it('finds odd links as the server sends them (a NUL, a lone surrogate, accents, an address only)', async () => {
    const odd = [
      makeLink({ directory_id: dirA.id, owner_id: ME, title: 'Null\u0000byte title', url: 'https://nul.example/a' }),
      makeLink({ directory_id: dirA.id, owner_id: ME, title: 'Half \uD83D surrogate', url: 'https://x.example' }),
      makeLink({ directory_id: dirA.id, owner_id: ME, title: 'Crème brûlée', url: 'https://cooking.example' }),
      makeLink({ directory_id: dirB.id, owner_id: ME, title: '', url: 'http://192.168.1.20:8080/router/admin' }),
      makeLink({ directory_id: dirB.id, owner_id: ME, title: '', url: 'https://xn--bcher-kva.example/' }),
      makeLink({ directory_id: dirB.id, owner_id: ME, title: 'Tagged', url: 'not a url at all', tags: ['Zoë'] }),
    ].map((row, i) => ({ ...row, ...server(i + 1) }));
    await pullFromScratch(odd, true);
    await indexWordBacklog(db, idle);
    for (const query of [
      'null',
      'byte',
      'half',
      'surrogate',
      'creme',
      'brûlée',
      '192',
      'router',
      'bucher',
      'zoe',
      'not url',
    ]) {
      expect({ query, ids: ids((await searchLinks(db, searchWords(query), 8)).rows) }).toEqual({
        query,
        ids: ids((await reference(query, 8)).rows),
      });
    }
    expect(ids((await searchLinks(db, searchWords('creme'), 8)).rows)).toEqual([odd[2]!.id]);
  });

  it('a pull from scratch again drops the words of links it no longer brings', async () => {
    await pullFromScratch([link(1), link(2)], true);
    await indexWordBacklog(db, idle);
    await pullFromScratch([link(3)], true);
    await indexWordBacklog(db, idle);
    expect(await indexedIds()).toEqual([link(3).id]);
    expect(ids((await searchLinks(db, searchWords('report'), 10)).rows)).toEqual([link(3).id]);
  });
});
