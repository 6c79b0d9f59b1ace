// @vitest-environment jsdom
import { whereGroup } from '../../src/data/group-range.ts';
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IN_MEMORY_MAX, SEARCH_SHOWN, useLinkWindow } from '../../src/data/queries/link-window.ts';
import { mutate } from '../../src/data/mutate.ts';
import { ctx, freshDb, watchTable } from './helpers.ts';
import { searchList } from '../../src/features/links/link-filters.ts';
import { makeDirectory, makeLink, ME } from '../support/builders.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

async function seeded(count: number, title = (i: number) => `Link ${i}`, db = freshDb()) {
  const directory = makeDirectory({ owner_id: ME });
  await db.link_directories.put(directory);
  await db.saved_links.bulkPut(
    Array.from({ length: count }, (_, i) =>
      makeLink({ directory_id: directory.id, owner_id: ME, title: title(i), created_at: day(i) }),
    ),
  );
  return { db, directoryId: directory.id };
}

function screen(
  db: Awaited<ReturnType<typeof seeded>>['db'],
  directoryId: string,
  query: string,
  primed = false,
  inMemoryMax = IN_MEMORY_MAX,
) {
  return renderHook(
    ({ query, primed }: { query: string; primed: boolean }) =>
      useLinkWindow(db, directoryId, query, { start: 0, end: 48 }, primed, inMemoryMax),
    { initialProps: { query, primed } },
  );
}

const sevens = ['Link 7', ...Array.from({ length: 10 }, (_, i) => `Link ${70 + i}`)];

const titles = (view: ReturnType<typeof screen>) => view.result.current?.shown.rows.map((row) => row.title);

describe("the Links screen's search", () => {
  it('lists the links a word begins a word of, the exact word first, newest first within each word', async () => {
    const { db, directoryId } = await seeded(200);
    const view = screen(db, directoryId, '');
    await waitFor(() => expect(view.result.current?.shown.rows).toHaveLength(96));
    view.rerender({ query: '7', primed: false });
    // The key's own render still shows the window: the directory is being read.
    expect(view.result.current?.shown.rows).toHaveLength(96);
    // '7' exactly, then 70 to 79 (not 17, 107 or 170: '7' is inside those words).
    await waitFor(() => expect(titles(view)).toEqual(sevens));
    expect(view.result.current?.count).toBe(200);
    expect(view.result.current?.more).toBe(false);
    // Two words: read by the longest ('link', every link has it exactly: newest first), each checked for '19'.
    view.rerender({ query: 'link 19', primed: false });
    await waitFor(() =>
      expect(titles(view)).toEqual([...Array.from({ length: 10 }, (_, i) => `Link ${199 - i}`), 'Link 19']),
    );
    view.rerender({ query: 'nothing', primed: false });
    await waitFor(() => expect(view.result.current?.shown.total).toBe(0));
    // Cleared: the window again.
    view.rerender({ query: '', primed: false });
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

  it('shows the matches in the first key’s own render once the box has the focus (a short directory)', async () => {
    const { db, directoryId } = await seeded(200);
    const view = screen(db, directoryId, '', true);
    await waitFor(() => expect(view.result.current?.shown.rows).toHaveLength(96));
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    view.rerender({ query: '7', primed: true });
    expect(titles(view)).toEqual(sevens);
  });

  it('matches a directory of thousands of links in the first key’s own render, read a page at a time', async () => {
    const { db, directoryId } = await seeded(3_001);
    const view = screen(db, directoryId, '', true);
    await waitFor(() => expect(view.result.current?.shown.rows).toHaveLength(96));
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_500)));
    view.rerender({ query: 'link 300', primed: true });
    expect(titles(view)).toEqual(['Link 3000', 'Link 300']);
    view.rerender({ query: 'link', primed: true });
    expect(view.result.current?.more).toBe(true);
    expect(view.result.current?.shown.rows[0]?.title).toBe('Link 3000');
  });

  it('reads a directory of more than the most held in memory through the token index, in the same order', async () => {
    // The most held is lowered for the test (the screen's is IN_MEMORY_MAX): 401 links are over it.
    const max = 400;
    const { db, directoryId } = await seeded(max + 1);
    const other = makeDirectory({ owner_id: ME });
    await db.saved_links.put(makeLink({ directory_id: other.id, title: 'Link 7 elsewhere', created_at: day(9999) }));
    const view = screen(db, directoryId, '7', false, max);
    const long = { timeout: 20_000 };
    // As the rule lists them in memory: 7, then 70 to 79 (word by word).
    const all = await whereGroup(db.saved_links, 'directory_id', directoryId).toArray();
    expect(searchList(all, '7').map((row) => row.title)).toEqual(sevens);
    await waitFor(() => expect(titles(view)).toEqual(sevens), long);
    expect(view.result.current?.more).toBe(false);
    // 'link' is in every link: more than SEARCH_SHOWN match, the first shown.
    view.rerender({ query: 'link', primed: false });
    await waitFor(() => expect(view.result.current?.more).toBe(true), long);
    expect(IN_MEMORY_MAX).toBeGreaterThan(max);
    expect(SEARCH_SHOWN).toBeLessThan(max);
    expect(view.result.current?.shown.rows).toHaveLength(SEARCH_SHOWN);
    expect(view.result.current?.shown.rows[0]?.title).toBe('Link 400');
    // Both have 'link', the longest word typed, whole: newest first.
    view.rerender({ query: 'link 40', primed: false });
    await waitFor(() => expect(titles(view)).toEqual(['Link 400', 'Link 40']), long);
  });

  it('shows a link added while searching', async () => {
    const { db, directoryId } = await seeded(20);
    const view = screen(db, directoryId, '7');
    await waitFor(() => expect(titles(view)).toEqual(['Link 7']));
    await act(() =>
      db.saved_links.put(makeLink({ directory_id: directoryId, owner_id: ME, title: 'New 77', created_at: day(99) })),
    );
    await waitFor(() => expect(titles(view)).toEqual(['Link 7', 'New 77']));
    await waitFor(() => expect(view.result.current?.count).toBe(21));
  });
});

describe('the search of a directory whose links are held for the scroll', () => {
  /** The screen's answers, each render's, from `view` on: a search's matches or the whole window. */
  function searchScreen(db: Awaited<ReturnType<typeof seeded>>['db'], directoryId: string) {
    const answers: (readonly string[] | undefined)[] = [];
    const view = renderHook(
      ({ query, primed }: { query: string; primed: boolean }) => {
        const shown = useLinkWindow(db, directoryId, query, { start: 0, end: 48 }, primed);
        answers.push(shown?.shown.rows.map((row) => row.title));
        return shown;
      },
      { initialProps: { query: '', primed: false } },
    );
    return { view, answers };
  }

  it('matches the held links: the directory is not read a second time', async () => {
    const db = freshDb();
    const links = watchTable(db, 'saved_links');
    const { directoryId } = await seeded(300, undefined, db);
    const { view } = searchScreen(db, directoryId);
    await waitFor(() => expect(view.result.current?.held).toBe(true), { timeout: 5_000 });
    const readBefore = links.rowsRead;
    view.rerender({ query: '7', primed: true });
    expect(titles(view)).toEqual(sevens);
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(titles(view)).toEqual(sevens);
    // Reading the scope would read the 300 links again.
    expect(links.rowsRead - readBefore).toBe(0);
  });

  it('keeps its matches on screen while a write lets the held links go, then shows the write', async () => {
    const { db, directoryId } = await seeded(300);
    const { view, answers } = searchScreen(db, directoryId);
    await waitFor(() => expect(view.result.current?.held).toBe(true), { timeout: 5_000 });
    view.rerender({ query: '7', primed: true });
    expect(titles(view)).toEqual(sevens);
    const from = answers.length;
    await act(() =>
      mutate(
        db,
        'link.create',
        { id: crypto.randomUUID(), directory_id: directoryId, url: 'https://new.test/', title: 'New 7' },
        ctx({ tier: 'pro' }),
      ),
    );
    await waitFor(() => expect(view.result.current?.held).toBe(false));
    // The new link has the word '7' exactly, and is the newest: first.
    const withNew = ['New 7', ...sevens];
    await waitFor(() => expect(titles(view)).toEqual(withNew));
    // Held again once the writes pause, and still the same matches.
    await waitFor(() => expect(view.result.current?.held).toBe(true), { timeout: 5_000 });
    expect(titles(view)).toEqual(withNew);
    // No render in between showed the whole window (96 links) in place of the matches.
    expect(answers.slice(from).every((shown) => shown !== undefined && shown.length <= withNew.length)).toBe(true);
  });
});

describe("the Links screen's window, scrolled", () => {
  it('shows a far window once read, then follows the writes to it', async () => {
    const { db, directoryId } = await seeded(600);
    const view = renderHook(
      ({ range }: { range: { start: number; end: number } }) => useLinkWindow(db, directoryId, '', range),
      { initialProps: { range: { start: 0, end: 48 } } },
    );
    const shown = () => view.result.current?.shown.rows.map((row) => row.title);
    await waitFor(() => expect(shown()?.[0]).toBe('Link 599'));
    // Rows 480-528 in view: the pages from 432 to 576 are read (a page beyond each side).
    view.rerender({ range: { start: 480, end: 528 } });
    await waitFor(() => expect(view.result.current?.shown.start).toBe(432));
    expect(shown()).toEqual(Array.from({ length: 144 }, (_, i) => `Link ${599 - 432 - i}`));
    // The window read early is then followed live: a link arriving at the top moves it one on.
    await act(() =>
      mutate(
        db,
        'link.create',
        { id: crypto.randomUUID(), directory_id: directoryId, url: 'new.test', title: 'New' },
        ctx({ tier: 'pro' }),
      ),
    );
    await waitFor(() => expect(shown()?.[0]).toBe('Link 168'));
    expect(view.result.current?.count).toBe(601);
  });
});

describe("the Links screen's window while links are saved elsewhere", () => {
  it('is the same object after saves into another directory, and a new one with a save into it', async () => {
    const { db, directoryId } = await seeded(10);
    const other = makeDirectory({ owner_id: ME });
    await db.link_directories.put(other);
    let renders = 0;
    const view = renderHook(() => {
      renders += 1;
      return useLinkWindow(db, directoryId, '', { start: 0, end: 48 });
    });
    await waitFor(() => expect(view.result.current?.shown.rows).toHaveLength(10));
    const before = view.result.current;
    const rendersBefore = renders;
    const save = (directory: string, title: string) =>
      mutate(
        db,
        'link.create',
        { id: crypto.randomUUID(), directory_id: directory, url: 'https://x.test/', title },
        ctx(),
      );
    // Each shown to screens as it is made (a prediction, its writes, its commit): none of them here.
    await act(() => save(other.id, 'Elsewhere'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(view.result.current).toBe(before);
    expect(renders).toBe(rendersBefore);
    await act(() => save(directoryId, 'Here'));
    await waitFor(() => expect(titles(view)?.[0]).toBe('Here'));
  });
});
