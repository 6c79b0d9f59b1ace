// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SEARCH_SHOWN, useLinkWindow } from '../../src/data/queries/link-window.ts';
import { freshDb } from './helpers.ts';
import { makeDirectory, makeLink, ME } from '../support/builders.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

async function seeded(count: number, title = (i: number) => `Link ${i}`) {
  const db = freshDb();
  const directory = makeDirectory({ owner_id: ME });
  await db.link_directories.put(directory);
  await db.saved_links.bulkPut(
    Array.from({ length: count }, (_, i) =>
      makeLink({ directory_id: directory.id, owner_id: ME, title: title(i), created_at: day(i) }),
    ),
  );
  return { db, directoryId: directory.id };
}

function screen(db: Awaited<ReturnType<typeof seeded>>['db'], directoryId: string, query: string) {
  return renderHook(({ query }: { query: string }) => useLinkWindow(db, directoryId, query, { start: 0, end: 48 }), {
    initialProps: { query },
  });
}

const titles = (view: ReturnType<typeof screen>) => view.result.current?.shown.rows.map((row) => row.title);

describe("the Links screen's search", () => {
  it('lists the links a word begins a word of, the exact word first, newest first within each word', async () => {
    const { db, directoryId } = await seeded(200);
    const view = screen(db, directoryId, '');
    await waitFor(() => expect(view.result.current?.shown.rows).toHaveLength(96));
    view.rerender({ query: '7' });
    // The key's own render still shows the window: the index is being read.
    expect(view.result.current?.shown.rows).toHaveLength(96);
    // '7' exactly, then 70 to 79 (not 17, 107 or 170: '7' is inside those words).
    await waitFor(() =>
      expect(titles(view)).toEqual(['Link 7', ...Array.from({ length: 10 }, (_, i) => `Link ${70 + i}`)]),
    );
    expect(view.result.current?.count).toBe(200);
    expect(view.result.current?.more).toBe(false);
    // Two words: read by the longest ('link', every link has it exactly: newest first), each checked for '19'.
    view.rerender({ query: 'link 19' });
    await waitFor(() =>
      expect(titles(view)).toEqual([...Array.from({ length: 10 }, (_, i) => `Link ${199 - i}`), 'Link 19']),
    );
    view.rerender({ query: 'nothing' });
    await waitFor(() => expect(view.result.current?.shown.total).toBe(0));
    // Cleared: the window again.
    view.rerender({ query: '' });
    await waitFor(() => expect(view.result.current?.shown.rows).toHaveLength(96));
  });

  it('shows the first matches and says when more may match', async () => {
    const { db, directoryId } = await seeded(SEARCH_SHOWN + 20, (i) => `Guide ${i}`);
    const view = screen(db, directoryId, 'guid');
    await waitFor(() => expect(view.result.current?.more).toBe(true));
    expect(view.result.current?.shown.rows).toHaveLength(SEARCH_SHOWN);
    // All have the word 'guide': newest first.
    expect(view.result.current?.shown.rows[0]?.title).toBe(`Guide ${SEARCH_SHOWN + 19}`);
  });

  it("lists only the directory's own links, also beside a directory whose id starts the same", async () => {
    const db = freshDb();
    const mine = makeDirectory({ id: 'aaaaaaaa-0000-4000-8000-000000000001', owner_id: ME });
    const other = makeDirectory({ id: 'aaaaaaaa-0000-4000-8000-000000000002', owner_id: ME });
    const third = makeDirectory({ id: 'bbbbbbbb-0000-4000-8000-000000000003', owner_id: ME });
    await db.link_directories.bulkPut([mine, other, third]);
    await db.saved_links.bulkPut([
      ...Array.from({ length: 30 }, (_, i) =>
        makeLink({ directory_id: other.id, title: `Recipe ${i}`, created_at: day(100 + i) }),
      ),
      makeLink({ directory_id: third.id, title: 'Recipe elsewhere', created_at: day(500) }),
      makeLink({ directory_id: mine.id, title: 'Recipe of mine', created_at: day(1) }),
    ]);
    const view = screen(db, mine.id, 'recipe');
    await waitFor(() => expect(titles(view)).toEqual(['Recipe of mine']));
  });

  it('shows a link added while searching', async () => {
    const { db, directoryId } = await seeded(20);
    const view = screen(db, directoryId, '7');
    await waitFor(() => expect(titles(view)).toEqual(['Link 7']));
    await act(() =>
      db.saved_links.put(makeLink({ directory_id: directoryId, owner_id: ME, title: 'New 77', created_at: day(99) })),
    );
    await waitFor(() => expect(titles(view)).toEqual(['Link 7', 'New 77']));
    expect(view.result.current?.count).toBe(21);
  });
});
