// Dexie's liveQuery needs a global indexedDB (the databases themselves are each test's own).
import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import type { PendingWrite } from '../../src/data/pending-writes.ts';
import {
  overlaySlice,
  pagesFor,
  readLinkWindow,
  readWindowRows,
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
