// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import Dexie, { type ObservabilitySet } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { wake } from '../../src/data/burst-wakes.ts';
import { mutate } from '../../src/data/mutate.ts';
import { HOLD_ABOVE, touchesDirectory } from '../../src/data/queries/held-directory.ts';
import { useLinkWindow } from '../../src/data/queries/link-window.ts';
import { forEachDirectoryPage } from '../../src/data/queries/link-search.ts';
import { ctx, freshDb } from './helpers.ts';
import { makeDirectory, makeEvent, makeLink, ME } from '../support/builders.ts';

const minute = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
const pro = ctx({ tier: 'pro' });

async function seeded(count: number) {
  const db = freshDb();
  const here = makeDirectory({ owner_id: ME });
  const there = makeDirectory({ owner_id: ME });
  await db.link_directories.bulkPut([here, there]);
  const links = Array.from({ length: count }, (_, i) =>
    makeLink({ directory_id: here.id, owner_id: ME, title: `Link ${i}`, created_at: minute(i) }),
  );
  const elsewhere = makeLink({ directory_id: there.id, owner_id: ME, title: 'Elsewhere', created_at: minute(0) });
  await db.saved_links.bulkPut([...links, elsewhere]);
  return { db, here: here.id, there: there.id, links, elsewhere };
}

/** The storagemutated parts of what `write` changes, as this page and the app's other tabs are told them. */
async function partsOf(write: () => Promise<unknown>): Promise<ObservabilitySet> {
  const told: ObservabilitySet[] = [];
  const listen = (parts: ObservabilitySet) => void told.push(parts);
  Dexie.on('storagemutated', listen);
  try {
    await write();
    // A save's wake waits for the burst's beat: told now.
    wake();
    return told.reduce((all, parts) => Dexie.extendObservabilitySet(all, parts), {} as ObservabilitySet);
  } finally {
    Dexie.on('storagemutated').unsubscribe(listen);
  }
}

afterEach(() => wake());

describe('which writes touch the links held for a directory', () => {
  it('tells apart writes to its links and writes to others, from the parts real writes produce', async () => {
    const { db, here, there, links, elsewhere } = await seeded(5);
    const ids = new Set(links.map((link) => link.id));
    const touches = (parts: ObservabilitySet, read: ReadonlySet<string> | null = ids) =>
      touchesDirectory(parts, db.name, here, read);
    // A held link edited (its keys in the directory's order unchanged: only its id is noted).
    expect(touches(await partsOf(() => mutate(db, 'link.update', { id: links[2]!.id, title: 'Edited' }, pro)))).toBe(
      true,
    );
    expect(touches(await partsOf(() => mutate(db, 'link.set_favorite', { id: links[0]!.id, value: true }, pro)))).toBe(
      true,
    );
    // A link of another directory edited, created or deleted: not this one's.
    expect(touches(await partsOf(() => mutate(db, 'link.update', { id: elsewhere.id, title: 'Moved on' }, pro)))).toBe(
      false,
    );
    const created = crypto.randomUUID();
    const make = (id: string, directory_id: string) =>
      mutate(db, 'link.create', { id, directory_id, url: 'https://new.test/', title: 'New' }, pro);
    expect(touches(await partsOf(() => make(created, there)))).toBe(false);
    expect(touches(await partsOf(() => mutate(db, 'link.delete', { id: created }, pro)))).toBe(false);
    // A link arriving in it (new), one deleted from it.
    expect(touches(await partsOf(() => make(crypto.randomUUID(), here)))).toBe(true);
    expect(touches(await partsOf(() => mutate(db, 'link.delete', { id: links[4]!.id }, pro)))).toBe(true);
    // Rows as a pull writes them: a link of another directory moved into this one, and one of this one moved out.
    const movedIn = { ...elsewhere, directory_id: here, updated_at: minute(100) };
    expect(touches(await partsOf(() => db.saved_links.put(movedIn)))).toBe(true);
    const movedOut = { ...links[1]!, directory_id: there, updated_at: minute(101) };
    expect(touches(await partsOf(() => db.saved_links.put(movedOut)))).toBe(true);
    // A page of 50 rows or more (Dexie notes no keys for them): taken to touch it, wherever they go.
    const page = Array.from({ length: 60 }, (_, i) => makeLink({ directory_id: there, owner_id: ME, title: `P${i}` }));
    expect(touches(await partsOf(() => db.saved_links.bulkPut(page)))).toBe(true);
    // Another table's write never; while the read runs (no ids yet) any write to the links does.
    const event = makeEvent({ owner_id: ME, title: 'Lunch' });
    expect(touches(await partsOf(() => db.calendar_events.put(event)))).toBe(false);
    const other = await partsOf(() => mutate(db, 'link.update', { id: page[0]!.id, title: 'Again' }, pro));
    expect(touches(other)).toBe(false);
    expect(touches(other, null)).toBe(true);
  });
});

describe("a directory's links held in memory", () => {
  const screen = (db: ReturnType<typeof freshDb>, directoryId: string) =>
    renderHook(({ range }: { range: { start: number; end: number } }) => useLinkWindow(db, directoryId, '', range), {
      initialProps: { range: { start: 0, end: 48 } },
    });
  const titles = (view: ReturnType<typeof screen>) => view.result.current?.shown.rows.map((row) => row.title);
  // Links 0 to 599 by age: the window from 432 (a page before 480) is links 167 down to 24.
  const far = Array.from({ length: 144 }, (_, i) => `Link ${599 - 432 - i}`);

  it('answers a far window in the render that asks for it, then lets go at a write to the directory', async () => {
    const { db, here, links } = await seeded(600);
    const view = screen(db, here);
    await waitFor(() => expect(titles(view)?.[0]).toBe('Link 599'));
    await waitFor(() => expect(view.result.current?.held).toBe(true), { timeout: 5_000 });
    // No read between the range and its rows: the very render asking for them has them.
    view.rerender({ range: { start: 480, end: 528 } });
    expect(view.result.current?.shown.start).toBe(432);
    expect(titles(view)).toEqual(far);
    expect(view.result.current?.count).toBe(600);
    // A link of that window edited: the held links go stale and the window is read from IndexedDB.
    await act(() => mutate(db, 'link.update', { id: links[100]!.id, title: 'Edited 100' }, pro));
    await act(async () => wake());
    expect(view.result.current?.held).toBe(false);
    await waitFor(() => expect(titles(view)).toContain('Edited 100'));
    // Read again once the writes pause, with the edit in them: a far window in its own render again.
    await waitFor(() => expect(view.result.current?.held).toBe(true), { timeout: 5_000 });
    view.rerender({ range: { start: 0, end: 48 } });
    expect(titles(view)?.[0]).toBe('Link 599');
    view.rerender({ range: { start: 480, end: 528 } });
    expect(titles(view)).toEqual(far.map((title) => (title === 'Link 100' ? 'Edited 100' : title)));
  });

  it('lays a save made after the read over the held links, as over any read', async () => {
    const { db, here } = await seeded(600);
    const view = screen(db, here);
    await waitFor(() => expect(view.result.current?.held).toBe(true), { timeout: 5_000 });
    const id = crypto.randomUUID();
    // Before its commit's wake: the new link shows at the top and counts, held or not.
    await act(() => mutate(db, 'link.create', { id, directory_id: here, url: 'https://new.test/', title: 'New' }, pro));
    expect(titles(view)?.[0]).toBe('New');
    expect(view.result.current?.count).toBe(601);
  });

  it('holds no directory of HOLD_ABOVE links or fewer: each window is read', async () => {
    const { db, here } = await seeded(HOLD_ABOVE);
    const view = screen(db, here);
    await waitFor(() => expect(titles(view)).toHaveLength(HOLD_ABOVE));
    await act(() => new Promise((resolve) => setTimeout(resolve, 600)));
    expect(view.result.current?.held).toBe(false);
  });
});

describe("a directory's links read a page at a time", () => {
  it('hands them newest first, and stops at the page its reader answers false to', async () => {
    const { db, here } = await seeded(600);
    const pages: string[][] = [];
    await forEachDirectoryPage(db, here, 250, (rows) => void pages.push(rows.map((row) => row.title)));
    expect(pages.map((page) => page.length)).toEqual([250, 250, 100]);
    expect(pages.flat()).toEqual(Array.from({ length: 600 }, (_, i) => `Link ${599 - i}`));
    // A reader that no longer wants them (its screen closed): no page after.
    let visits = 0;
    await forEachDirectoryPage(db, here, 250, () => ((visits += 1), false));
    expect(visits).toBe(1);
  });
});
