// Dexie's liveQuery needs a global indexedDB (the databases themselves are each test's own).
import 'fake-indexeddb/auto';
import { liveQuery, type WhereClause } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { movesKey } from '../../src/data/index-counts.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { PendingWrite } from '../../src/data/pending-writes.ts';
import {
  overlaySlice,
  pagesFor,
  readLinkWindow,
  readWindowRows,
  takeAnchors,
  type LinkSlice,
} from '../../src/data/queries/link-window.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import { ME, ctx, freshDb, makeDirectory, makeLink } from './helpers.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

async function seeded(count: number) {
  const db = freshDb();
  const [mine, other] = [makeDirectory({ owner_id: ME }), makeDirectory({ owner_id: ME })];
  await db.link_directories.bulkPut([mine, other]);
  const links = Array.from({ length: count }, (_, i) =>
    makeLink({ directory_id: mine.id, owner_id: ME, title: `Link ${i}`, created_at: day(i), updated_at: day(i) }),
  );
  await db.saved_links.bulkPut([...links, makeLink({ directory_id: other.id, owner_id: ME, created_at: day(10_000) })]);
  return { db, mine, other };
}

describe("the Links screen's window", () => {
  it('reads the directory count and only the window, newest first, through the index', async () => {
    const { db, mine } = await seeded(200);
    const window = await readLinkWindow(db, mine.id, false, 48, 96);
    expect(window.count).toBe(200);
    expect(window.slice.total).toBe(200);
    expect(window.slice.start).toBe(48);
    expect(window.slice.rows.map((link) => link.title)).toEqual(
      Array.from({ length: 48 }, (_, i) => `Link ${199 - 48 - i}`),
    );
    const searching = await readLinkWindow(db, mine.id, true, 48, 96);
    expect(searching.slice.rows).toHaveLength(200);
    expect(searching.slice.rows[0]?.title).toBe('Link 199');
  });

  it("the window's rows wake on a write to its directory only", async () => {
    const { db, mine, other } = await seeded(100);
    const results: number[] = [];
    const subscription = liveQuery(() => readWindowRows(db, mine.id, 0, 48)).subscribe((window) =>
      results.push(window.length),
    );
    await vi.waitFor(() => expect(results).toEqual([48]));
    await mutate(
      db,
      'link.create',
      { id: crypto.randomUUID(), directory_id: other.id, url: 'a.test', title: 'Elsewhere' },
      ctx({ tier: 'pro' }),
    );
    // Give a wrongly woken query time to answer.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(results).toEqual([48]);
    await mutate(
      db,
      'link.create',
      { id: crypto.randomUUID(), directory_id: mine.id, url: 'b.test', title: 'Here' },
      ctx({ tier: 'pro' }),
    );
    await vi.waitFor(() => expect(results).toEqual([48, 48]));
    subscription.unsubscribe();
  });

  it('reads whole pages around the range in view', () => {
    expect(pagesFor(0, 10)).toEqual({ from: 0, to: 48 });
    expect(pagesFor(40, 60)).toEqual({ from: 0, to: 96 });
    expect(pagesFor(100, 130)).toEqual({ from: 96, to: 144 });
  });
});

describe('anchors: far windows without stepping over every link before them', () => {
  /** 2,600 links in groups of 300 sharing a created_at (an import), and the order the screen shows them in. */
  async function tied() {
    const db = freshDb();
    const directory = makeDirectory({ owner_id: ME });
    await db.link_directories.put(directory);
    const links = Array.from({ length: 2_600 }, (_, i) =>
      makeLink({ directory_id: directory.id, owner_id: ME, title: `Link ${i}`, created_at: day(Math.floor(i / 300)) }),
    );
    await db.saved_links.bulkPut(links);
    const order = [...links].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    return { db, directory, order };
  }
  const titles = (rows: readonly LinkRow[]) => rows.map((row) => row.title);

  it('give the same windows as stepping from the newest link, ties included', async () => {
    const { db, directory, order } = await tied();
    const offsets = [0, 999, 1_000, 1_001, 1_777, 2_000, 2_552];
    const before = await Promise.all(offsets.map((from) => readWindowRows(db, directory.id, from, from + 48)));
    await takeAnchors(db, directory.id);
    const between = vi.spyOn(Object.getPrototypeOf(db.saved_links.where('id')) as WhereClause, 'between');
    for (const [i, from] of offsets.entries()) {
      const rows = await readWindowRows(db, directory.id, from, from + 48);
      expect(titles(rows), `from ${from}`).toEqual(titles(order.slice(from, from + 48)));
      expect(titles(rows)).toEqual(titles(before[i]!));
    }
    // From 1,000 on, a window is read up to the anchor before it: the link at 1,000 or 2,000.
    const uppers = between.mock.calls.map(([, upper]) => (upper as string[])[2]);
    expect(uppers).toContain(order[1_000]!.id);
    expect(uppers).toContain(order[2_000]!.id);
    between.mockRestore();
  });

  it('are dropped when a link arrives or leaves, and kept through an edit', async () => {
    const { db, directory, order } = await tied();
    await takeAnchors(db, directory.id);
    const newest = makeLink({ directory_id: directory.id, owner_id: ME, title: 'Newest', created_at: day(100) });
    await db.saved_links.put(newest);
    const shifted = [newest, ...order];
    expect(titles(await readWindowRows(db, directory.id, 1_500, 1_510))).toEqual(titles(shifted.slice(1_500, 1_510)));
    await takeAnchors(db, directory.id);
    await db.saved_links.delete(order[10]!.id);
    const after = shifted.filter((link) => link.id !== order[10]!.id);
    expect(titles(await readWindowRows(db, directory.id, 2_100, 2_110))).toEqual(titles(after.slice(2_100, 2_110)));
    await takeAnchors(db, directory.id);
    await db.saved_links.update(after[1_200]!.id, { title: 'Renamed' });
    after[1_200] = { ...after[1_200]!, title: 'Renamed' };
    expect(titles(await readWindowRows(db, directory.id, 1_195, 1_205))).toEqual(titles(after.slice(1_195, 1_205)));
  });

  it('count a link moved to another directory as leaving one and arriving in the other', async () => {
    const { db, directory } = await tied();
    const other = makeDirectory({ owner_id: ME });
    await db.link_directories.put(other);
    const moves = async (id: string) => (await db.counts.get(movesKey('saved_links', 'directory_id', id)))?.n ?? 0;
    const [here, there] = [await moves(directory.id), await moves(other.id)];
    expect(here).toBe(2_600);
    const link = (await db.saved_links.where('directory_id').equals(directory.id).first())!;
    await db.saved_links.update(link.id, { title: 'Edited' });
    expect(await moves(directory.id)).toBe(here);
    await db.saved_links.update(link.id, { directory_id: other.id });
    expect([await moves(directory.id), await moves(other.id)]).toEqual([here + 1, there + 1]);
  });
});

describe('pending writes over a window', () => {
  const link = (n: number, overrides: Partial<LinkRow> = {}) =>
    makeLink({ directory_id: 'd1', title: `Link ${n}`, created_at: day(n), updated_at: day(n), ...overrides });
  const rows = [link(30), link(29), link(28)];
  const write = (row: LinkRow | null, key = row?.id ?? ''): PendingWrite => ({ key, row, epoch: null });
  const titles = (slice: LinkSlice) => slice.rows.map((row) => row.title);

  it('puts a new link first when the window starts the list, and counts it', () => {
    const out = overlaySlice({ total: 3, start: 0, rows }, [write(link(31, { title: 'New' }))], 'd1');
    expect(titles(out)).toEqual(['New', 'Link 30', 'Link 29', 'Link 28']);
    expect(out.total).toBe(4);
  });

  it('edits and deletes rows in view; leaves rows above a scrolled window for the commit', () => {
    const slice = { total: 100, start: 48, rows };
    const edited = overlaySlice(slice, [write({ ...rows[1]!, title: 'Renamed' }), write(null, rows[2]!.id)], 'd1');
    expect(titles(edited)).toEqual(['Link 30', 'Renamed']);
    expect(edited.total).toBe(99);
    const above = overlaySlice(slice, [write(link(31))], 'd1');
    expect(above).toEqual({ total: 100, start: 48, rows });
  });

  it('a link moved to another directory leaves the window', () => {
    const out = overlaySlice({ total: 3, start: 0, rows }, [write({ ...rows[0]!, directory_id: 'd2' })], 'd1');
    expect(titles(out)).toEqual(['Link 29', 'Link 28']);
    expect(out.total).toBe(2);
  });
});
