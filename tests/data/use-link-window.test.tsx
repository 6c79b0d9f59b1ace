// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLinkWindow } from '../../src/data/queries/link-window.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import { freshDb } from './helpers.ts';
import { makeDirectory, makeLink, ME } from '../support/builders.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
const everything = () => true;
const sevens = (link: LinkRow) => link.title.includes('7');

async function seeded(count: number) {
  const db = freshDb();
  const directory = makeDirectory({ owner_id: ME });
  await db.link_directories.put(directory);
  await db.saved_links.bulkPut(
    Array.from({ length: count }, (_, i) =>
      makeLink({ directory_id: directory.id, owner_id: ME, title: `Link ${i}`, created_at: day(i) }),
    ),
  );
  return { db, directoryId: directory.id };
}

interface Props {
  searching: boolean;
  primed: boolean;
}

function screen(db: Awaited<ReturnType<typeof seeded>>['db'], directoryId: string, initial: Props) {
  return renderHook(
    ({ searching, primed }: Props) =>
      useLinkWindow(db, directoryId, searching, searching ? sevens : everything, { start: 0, end: 48 }, primed),
    { initialProps: initial },
  );
}

/** Lets every live query of the screen read and answer (fake-indexeddb, a few hundred rows). */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 300)));

describe("the Links screen's search", () => {
  it('waits for IndexedDB on the first key when the box was not focused', async () => {
    const { db, directoryId } = await seeded(200);
    const view = screen(db, directoryId, { searching: false, primed: false });
    await waitFor(() => expect(view.result.current?.shown.rows).toHaveLength(96));
    view.rerender({ searching: true, primed: false });
    // The key's own render still shows the window: the directory is being read.
    expect(view.result.current?.shown.rows).toHaveLength(96);
    await waitFor(() => expect(view.result.current?.shown.rows.every(sevens)).toBe(true));
  });

  it('shows the matches in the first key’s own render once the box has the focus', async () => {
    const { db, directoryId } = await seeded(200);
    const view = screen(db, directoryId, { searching: false, primed: true });
    await waitFor(() => expect(view.result.current?.shown.rows).toHaveLength(96));
    await settle();
    // Focused, nothing typed: still the window.
    expect(view.result.current?.shown.rows).toHaveLength(96);
    view.rerender({ searching: true, primed: true });
    const shown = view.result.current?.shown.rows ?? [];
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every(sevens)).toBe(true);
    expect(view.result.current?.count).toBe(200);
    // Cleared and typed again while focused: the read is kept.
    view.rerender({ searching: false, primed: true });
    expect(view.result.current?.shown.rows).toHaveLength(96);
    view.rerender({ searching: true, primed: true });
    expect(view.result.current?.shown.rows.every(sevens)).toBe(true);
  });

  it('shows a link added while searching', async () => {
    const { db, directoryId } = await seeded(20);
    const view = screen(db, directoryId, { searching: true, primed: true });
    await waitFor(() => expect(view.result.current?.shown.rows.length).toBeGreaterThan(0));
    await act(() =>
      db.saved_links.put(makeLink({ directory_id: directoryId, owner_id: ME, title: 'New 77', created_at: day(99) })),
    );
    await waitFor(() => expect(view.result.current?.shown.rows[0]?.title).toBe('New 77'));
    expect(view.result.current?.count).toBe(21);
  });
});
