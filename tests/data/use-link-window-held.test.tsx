// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { wake } from '../../src/data/burst-wakes.ts';
import { HOLD_ABOVE, useLinkWindow } from '../../src/data/queries/link-window.ts';
import { WINDOW_INDEX, directoryEnd, directoryStart } from '../../src/data/queries/link-anchors.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { LinkboardDb } from '../../src/data/db.ts';
import { heldDirectory, keysOf, readDirectoryRows } from '../../src/data/use-link-window-held.ts';
import { RangeSet } from 'dexie';
import { ctx, freshDb } from './helpers.ts';
import { makeDirectory, makeLink, ME } from '../support/builders.ts';

const LONG = { timeout: 10_000 };
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

async function seeded(count: number) {
  const db = freshDb();
  const directory = makeDirectory({ owner_id: ME });
  await db.link_directories.put(directory);
  // Every fifth link shares its created_at with the one before: the index orders those by id.
  await db.saved_links.bulkPut(
    Array.from({ length: count }, (_, i) =>
      makeLink({
        directory_id: directory.id,
        owner_id: ME,
        title: `Link ${i}`,
        created_at: at(i - (i % 5 === 4 ? 1 : 0)),
      }),
    ),
  );
  return { db, directoryId: directory.id };
}

/** The directory's links in the index's own order, reversed (newest first): what a window read gives. */
const indexOrder = async (db: LinkboardDb, directoryId: string) =>
  (
    await db.saved_links
      .where(WINDOW_INDEX)
      .between(directoryStart(directoryId), directoryEnd(directoryId), true, true)
      .toArray()
  )
    .reverse()
    .map((row) => row.id);

function screen(db: LinkboardDb, directoryId: string) {
  return renderHook(
    ({ range }: { range: { start: number; end: number } }) => useLinkWindow(db, directoryId, '', range),
    { initialProps: { range: { start: 0, end: 48 } } },
  );
}

/** The screen's links held, fresh (read, no range write waiting). */
async function heldFresh(db: LinkboardDb, directoryId: string) {
  await waitFor(() => {
    const held = heldDirectory(db, directoryId);
    expect(held?.rows && !held.stale).toBe(true);
    // Read a page at a time, the browser idle between two (50 ms apart where it has no idle callback).
  }, LONG);
  return heldDirectory(db, directoryId)!;
}

const unmounts: (() => void)[] = [];
afterEach(() => {
  wake();
  for (const unmount of unmounts.splice(0)) unmount();
});

describe("the open directory's links held in memory", () => {
  it('holds them in the index’s order (created_at, then id, newest first)', async () => {
    const { db, directoryId } = await seeded(1_100);
    const view = screen(db, directoryId);
    unmounts.push(view.unmount);
    const held = await heldFresh(db, directoryId);
    expect(held.rows!.map((row) => row.id)).toEqual(await indexOrder(db, directoryId));
    expect(await readDirectoryRows(db, directoryId)).toEqual(held.rows);
  });

  it('renders a far window from them in the scroll’s own render, with no read', async () => {
    const { db, directoryId } = await seeded(1_000);
    const view = screen(db, directoryId);
    unmounts.push(view.unmount);
    await heldFresh(db, directoryId);
    const order = await indexOrder(db, directoryId);
    // No await between the scroll and the check: a read (IndexedDB answers in a later task) could not be in it.
    view.rerender({ range: { start: 720, end: 768 } });
    const shown = view.result.current!.shown;
    expect(shown.start).toBe(672);
    expect(shown.rows.map((row) => row.id)).toEqual(order.slice(672, 816));
    expect(view.result.current!.count).toBe(1_000);
  });

  it('shows a link created while open at once, and keeps it after its commit', async () => {
    const { db, directoryId } = await seeded(HOLD_ABOVE + 60);
    const view = screen(db, directoryId);
    unmounts.push(view.unmount);
    const held = await heldFresh(db, directoryId);
    const id = crypto.randomUUID();
    await act(() =>
      mutate(db, 'link.create', { id, directory_id: directoryId, url: 'new.test', title: 'New' }, ctx({ tier: 'pro' })),
    );
    // Pending (or committed and applied): first either way.
    await waitFor(() => expect(view.result.current?.shown.rows[0]?.id).toBe(id));
    expect(view.result.current?.count).toBe(HOLD_ABOVE + 61);
    // The write's keys reach the held links (read by key, not the directory again).
    await act(async () => wake());
    await waitFor(() => expect(held.rows![0]?.id).toBe(id));
    expect(held.rows!.map((row) => row.id)).toEqual(await indexOrder(db, directoryId));
  });

  it('follows writes by key: an edit in place, a delete, a link moved to another directory', async () => {
    const { db, directoryId } = await seeded(400);
    const view = screen(db, directoryId);
    unmounts.push(view.unmount);
    const held = await heldFresh(db, directoryId);
    const rows = held.rows!;
    const [first, second, third] = rows;
    await act(async () => {
      await db.saved_links.update(first!.id, { title: 'Edited' });
      await db.saved_links.delete(second!.id);
      await db.saved_links.update(third!.id, { directory_id: crypto.randomUUID() });
    });
    await waitFor(() => expect(held.rows).toHaveLength(398));
    // Changed in place by the writes' keys, not read again.
    expect(held.rows).toBe(rows);
    expect(held.stale).toBe(false);
    expect(held.rows![0]).toMatchObject({ id: first!.id, title: 'Edited' });
    expect(held.rows!.map((row) => row.id)).toEqual(await indexOrder(db, directoryId));
    await waitFor(() => expect(view.result.current?.shown.rows[0]?.title).toBe('Edited'));
    expect(view.result.current?.count).toBe(398);
  });

  it('reads them again after a write of many links (a pulled page), the window read answering meanwhile', async () => {
    const { db, directoryId } = await seeded(300);
    const view = screen(db, directoryId);
    unmounts.push(view.unmount);
    const before = (await heldFresh(db, directoryId)).rows;
    // 60 links in one bulkPut: Dexie names a range, not their keys.
    const pulled = Array.from({ length: 60 }, (_, i) =>
      makeLink({ directory_id: directoryId, owner_id: ME, title: `Pulled ${i}`, created_at: at(5_000 + i) }),
    );
    await act(() => db.saved_links.bulkPut(pulled));
    await waitFor(() => expect(view.result.current?.shown.rows[0]?.title).toBe('Pulled 59'));
    const held = await heldFresh(db, directoryId);
    await waitFor(() => expect(held.rows).toHaveLength(360));
    expect(held.rows).not.toBe(before);
    expect(held.rows!.map((row) => row.id)).toEqual(await indexOrder(db, directoryId));
  });

  it('lets them go when the directory leaves the screen, and holds no short directory', async () => {
    const { db, directoryId } = await seeded(HOLD_ABOVE);
    const short = screen(db, directoryId);
    await waitFor(() => expect(short.result.current?.count).toBe(HOLD_ABOVE));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(heldDirectory(db, directoryId)).toBeNull();
    short.unmount();
    const long = await seeded(HOLD_ABOVE + 1);
    const view = screen(long.db, long.directoryId);
    await heldFresh(long.db, long.directoryId);
    view.unmount();
    expect(heldDirectory(long.db, long.directoryId)).toBeNull();
  });
});

describe('keysOf', () => {
  it('answers the keys of a set of single keys, null for a range', () => {
    expect(keysOf(new RangeSet().addKeys(['b', 'a', 'c']))?.sort()).toEqual(['a', 'b', 'c']);
    expect(keysOf(new RangeSet())).toEqual([]);
    expect(keysOf(new RangeSet('a', 'c'))).toBeNull();
    // As another tab sends it: a plain tree.
    expect(keysOf({ from: 'b', to: 'b', d: 2, l: { from: 'a', to: 'a', d: 1 }, r: null })).toEqual(['b', 'a']);
  });
});
