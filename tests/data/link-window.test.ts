// Dexie's liveQuery needs a global indexedDB (the databases themselves are each test's own).
import { whereGroup } from '../../src/data/group-range.ts';
import 'fake-indexeddb/auto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
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
  type LinkSlice,
} from '../../src/data/queries/link-window.ts';
import {
  ANCHOR_STEP,
  ANCHORS_META_PREFIX,
  anchorsFor,
  takeAnchors,
  wantLongDirectories,
} from '../../src/data/queries/link-anchors.ts';
import { openUserDb } from '../../src/data/db.ts';
import { clearSyncedTables, syncScope } from '../../src/sync/apply-rows.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import { ctx, freshDb } from './helpers.ts';
import { ME, makeDirectory, makeLink } from '../support/builders.ts';

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
    const window = await readLinkWindow(db, mine.id, 48, 96);
    expect(window.count).toBe(200);
    expect(window.slice.total).toBe(200);
    expect(window.slice.start).toBe(48);
    expect(window.slice.rows.map((link) => link.title)).toEqual(
      Array.from({ length: 48 }, (_, i) => `Link ${199 - 48 - i}`),
    );
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
  const S = ANCHOR_STEP;
  /** 2.6 steps of links in groups sharing a created_at (an import), and the order the screen shows them in. */
  const N = Math.round(2.6 * S);
  async function tied(db = freshDb()) {
    const directory = makeDirectory({ owner_id: ME });
    await db.link_directories.put(directory);
    const links = Array.from({ length: N }, (_, i) =>
      makeLink({
        directory_id: directory.id,
        owner_id: ME,
        title: `Link ${i}`,
        created_at: day(Math.floor(i / Math.round(0.3 * S))),
      }),
    );
    await db.saved_links.bulkPut(links);
    const order = [...links].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    return { db, directory, order };
  }
  const titles = (rows: readonly LinkRow[]) => rows.map((row) => row.title);
  /** The places of anchors taken after `arrived` links came above the second one. */
  const places = (arrived = 0) => Array.from({ length: Math.ceil(N / S) }, (_, i) => (i === 0 ? 0 : i * S + arrived));
  /** Anchors taken when idle: a walk in fake-indexeddb takes a while. */
  const idle = { timeout: 15_000, interval: 50 };

  it('give the same windows as stepping from the newest link, ties included', async () => {
    const { db, directory, order } = await tied();
    const offsets = [0, S - 1, S, S + 1, Math.round(1.777 * S), 2 * S, N - 48];
    const before = await Promise.all(offsets.map((from) => readWindowRows(db, directory.id, from, from + 48)));
    await takeAnchors(db, directory.id);
    const between = vi.spyOn(Object.getPrototypeOf(db.saved_links.where('id')) as WhereClause, 'between');
    for (const [i, from] of offsets.entries()) {
      const rows = await readWindowRows(db, directory.id, from, from + 48);
      expect(titles(rows), `from ${from}`).toEqual(titles(order.slice(from, from + 48)));
      expect(titles(rows)).toEqual(titles(before[i]!));
    }
    // From S on, a window is read up to the anchor before it: the link at S or 2S.
    const uppers = between.mock.calls.map(([, upper]) => (upper as string[])[2]);
    expect(uppers).toContain(order[S]!.id);
    expect(uppers).toContain(order[2 * S]!.id);
    between.mockRestore();
  });

  it('move down past links arriving above them, as a new link does', async () => {
    const { db, directory, order } = await tied();
    await takeAnchors(db, directory.id);
    const held = anchorsFor(db, directory.id)!;
    expect(held.places).toEqual(places());
    const newest = [day(100), day(101)].map((at, i) =>
      makeLink({ directory_id: directory.id, owner_id: ME, title: `Newest ${i}`, created_at: at }),
    );
    await db.saved_links.bulkPut(newest);
    const shifted = [...newest.reverse(), ...order];
    const between = vi.spyOn(Object.getPrototypeOf(db.saved_links.where('id')) as WhereClause, 'between');
    expect(titles(await readWindowRows(db, directory.id, 1.5 * S, 1.5 * S + 10))).toEqual(
      titles(shifted.slice(1.5 * S, 1.5 * S + 10)),
    );
    expect(anchorsFor(db, directory.id)?.places).toEqual(places(2));
    // The window was read from the anchor at S + 2, not stepped to from the newest link.
    expect(between.mock.calls.map(([, upper]) => upper)).toContainEqual([directory.id, ...held.keys[1]!]);
    between.mockRestore();
    expect(titles(await readWindowRows(db, directory.id, 2 * S + 1, 2 * S + 11))).toEqual(
      titles(shifted.slice(2 * S + 1, 2 * S + 11)),
    );
  });

  it('wake a far window read from them when a link arrives above it', async () => {
    const { db, directory, order } = await tied();
    await takeAnchors(db, directory.id);
    const from = 1.5 * S;
    const results: string[][] = [];
    const subscription = liveQuery(() => readWindowRows(db, directory.id, from, from + 10)).subscribe((rows) =>
      results.push(titles(rows)),
    );
    await vi.waitFor(() => expect(results).toEqual([titles(order.slice(from, from + 10))]));
    const newest = makeLink({ directory_id: directory.id, owner_id: ME, title: 'Newest', created_at: day(100) });
    await db.saved_links.put(newest);
    await vi.waitFor(() => expect(results.at(-1)).toEqual(titles(order.slice(from - 1, from + 9))));
    subscription.unsubscribe();
  });

  it('are dropped when a link leaves or arrives below them, taken again when idle, and kept through an edit', async () => {
    const { db, directory, order } = await tied();
    const held = await takeAnchors(db, directory.id);
    await db.saved_links.delete(order[10]!.id);
    let expected = order.filter((link) => link.id !== order[10]!.id);
    expect(titles(await readWindowRows(db, directory.id, 2.1 * S, 2.1 * S + 10))).toEqual(
      titles(expected.slice(2.1 * S, 2.1 * S + 10)),
    );
    expect(anchorsFor(db, directory.id)).not.toBe(held);
    await vi.waitFor(() => expect(anchorsFor(db, directory.id)?.places).toEqual(places()), idle);

    // An old bookmark imported: it lands below the second anchor and shifts the third.
    const old = makeLink({ directory_id: directory.id, owner_id: ME, title: 'Old', created_at: day(-5) });
    await db.saved_links.put(old);
    expected = [...expected, old];
    const before = anchorsFor(db, directory.id);
    expect(titles(await readWindowRows(db, directory.id, N - 10, N))).toEqual(titles(expected.slice(N - 10, N)));
    expect(anchorsFor(db, directory.id)).not.toBe(before);
    expect(anchorsFor(db, directory.id)?.moves ?? null).not.toBe(before?.moves);

    // Taken again when idle (after the read above dropped them).
    const moves = (await db.counts.get(movesKey('saved_links', 'directory_id', directory.id)))?.n;
    await vi.waitFor(() => expect(anchorsFor(db, directory.id)?.moves).toBe(moves), idle);
    const anchors = anchorsFor(db, directory.id);
    await db.saved_links.update(expected[1.2 * S]!.id, { title: 'Renamed' });
    expected[1.2 * S] = { ...expected[1.2 * S]!, title: 'Renamed' };
    expect(titles(await readWindowRows(db, directory.id, 1.2 * S - 5, 1.2 * S + 5))).toEqual(
      titles(expected.slice(1.2 * S - 5, 1.2 * S + 5)),
    );
    expect(anchorsFor(db, directory.id)).toBe(anchors);
  });

  it('are kept, and a directory opened again starts from them, shifted past new links', async () => {
    const factory = new IDBFactory();
    const { db, directory, order } = await tied(openUserDb(ME, { indexedDB: factory, IDBKeyRange }));
    const taken = await takeAnchors(db, directory.id);
    const key = `${ANCHORS_META_PREFIX}${directory.id}`;
    await vi.waitFor(async () => expect((await db.meta.get(key))?.value).toEqual(taken), idle);
    const newest = makeLink({ directory_id: directory.id, owner_id: ME, title: 'Newest', created_at: day(100) });
    await db.saved_links.put(newest);
    db.close();

    const again = openUserDb(ME, { indexedDB: factory, IDBKeyRange });
    await readLinkWindow(again, directory.id, 0, 48);
    // The kept anchors, shifted past the new link: a walk would have found places(0).
    await vi.waitFor(() => expect(anchorsFor(again, directory.id)?.places).toEqual(places(1)), idle);
    const shifted = [newest, ...order];
    expect(titles(await readWindowRows(again, directory.id, 2.3 * S, 2.3 * S + 10))).toEqual(
      titles(shifted.slice(2.3 * S, 2.3 * S + 10)),
    );

    // A clear (a pull from scratch) forgets them.
    await again.transaction('rw', syncScope(again), () => clearSyncedTables(again));
    expect(anchorsFor(again, directory.id)).toBeNull();
    expect(await again.meta.get(key)).toBeUndefined();
  });

  it('are not written back by a keep that was waiting for idle when a clear let them go', async () => {
    const waiting: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (run: () => void) => waiting.push(run));
    try {
      const { db, directory } = await tied();
      await takeAnchors(db, directory.id);
      expect(waiting).toHaveLength(1);
      // A pull from scratch clears the tables (and the anchors) before the browser is idle.
      await db.transaction('rw', syncScope(db), () => clearSyncedTables(db));
      for (const run of waiting.splice(0)) run();
      // What the keep would have written has had its turn: a write queued after it answers after it.
      await db.meta.put({ key: 'probe', value: 1 });
      expect(await db.meta.get(`${ANCHORS_META_PREFIX}${directory.id}`)).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('kept are put in memory by the first far read of a directory opened again, not when idle', async () => {
    const factory = new IDBFactory();
    const { db, directory, order } = await tied(openUserDb(ME, { indexedDB: factory, IDBKeyRange }));
    const taken = await takeAnchors(db, directory.id);
    const key = `${ANCHORS_META_PREFIX}${directory.id}`;
    await vi.waitFor(async () => expect((await db.meta.get(key))?.value).toEqual(taken), idle);
    db.close();
    // The browser never idle: only the read itself can find them.
    vi.stubGlobal('requestIdleCallback', () => 0);
    try {
      const again = openUserDb(ME, { indexedDB: factory, IDBKeyRange });
      expect(titles(await readWindowRows(again, directory.id, 2.3 * S, 2.3 * S + 10))).toEqual(
        titles(order.slice(2.3 * S, 2.3 * S + 10)),
      );
      expect(anchorsFor(again, directory.id)?.places).toEqual(places());
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('of every long directory are taken at once after a pull from scratch, and a far read waits for them', async () => {
    const { db, directory, order } = await tied();
    await db.saved_links.bulkPut(Array.from({ length: 10 }, () => makeLink({ directory_id: 'short', owner_id: ME })));
    // The browser never idle (a first sync's end, a screen showing): taken all the same; the far read waits.
    vi.stubGlobal('requestIdleCallback', () => 0);
    try {
      await wantLongDirectories(db);
      const far = await readWindowRows(db, directory.id, 2.3 * S, 2.3 * S + 10);
      expect(titles(far)).toEqual(titles(order.slice(2.3 * S, 2.3 * S + 10)));
      expect([anchorsFor(db, directory.id)?.keys.length, anchorsFor(db, 'short')]).toEqual([places().length, null]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('of a long directory are taken when the screen first reads it', async () => {
    const { db, directory } = await tied();
    expect(anchorsFor(db, directory.id)).toBeNull();
    await readLinkWindow(db, directory.id, 0, 48);
    await vi.waitFor(() => expect(anchorsFor(db, directory.id)?.keys).toHaveLength(places().length), idle);
  });

  it('count a link moved to another directory as leaving one and arriving in the other', async () => {
    const { db, directory } = await tied();
    const other = makeDirectory({ owner_id: ME });
    await db.link_directories.put(other);
    const moves = async (id: string) => (await db.counts.get(movesKey('saved_links', 'directory_id', id)))?.n ?? 0;
    const [here, there] = [await moves(directory.id), await moves(other.id)];
    expect(here).toBe(N);
    const link = (await whereGroup(db.saved_links, 'directory_id', directory.id).first())!;
    await db.saved_links.update(link.id, { title: 'Edited' });
    expect(await moves(directory.id)).toBe(here);
    await db.saved_links.update(link.id, { directory_id: other.id });
    expect([await moves(directory.id), await moves(other.id)]).toEqual([here + 1, there + 1]);
    // Only the fields declared `moves` are counted so: no other index pays for it.
    expect(await db.counts.where('key').startsWith('saved_links~moves/owner_id/').count()).toBe(0);
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

  it('puts a link made in the same millisecond as others where the index puts it (by id)', async () => {
    const { db, mine } = await seeded(0);
    const at = day(5);
    const ids = ['a1', 'b2', 'c3', 'd4', 'e5'].map((tail) => `00000000-0000-4000-8000-0000000000${tail}`);
    await db.saved_links.bulkPut(
      ids.map((id) => makeLink({ id, directory_id: mine.id, owner_id: ME, title: id.slice(-2), created_at: at })),
    );
    const window = await readLinkWindow(db, mine.id, 0, 48);
    expect(window.slice.rows.map((row) => row.title)).toEqual(['e5', 'd4', 'c3', 'b2', 'a1']);
    const tied = makeLink({
      id: '00000000-0000-4000-8000-0000000000c4',
      directory_id: mine.id,
      owner_id: ME,
      title: 'c4',
      created_at: at,
    });
    const out = overlaySlice(window.slice, [write(tied)], mine.id);
    expect(titles(out)).toEqual(['e5', 'd4', 'c4', 'c3', 'b2', 'a1']);
  });

  it('a link moved to another directory leaves the window', () => {
    const out = overlaySlice({ total: 3, start: 0, rows }, [write({ ...rows[0]!, directory_id: 'd2' })], 'd1');
    expect(titles(out)).toEqual(['Link 29', 'Link 28']);
    expect(out.total).toBe(2);
  });
});
