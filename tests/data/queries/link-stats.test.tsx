// @vitest-environment jsdom
// Dexie's liveQuery only reacts with a global indexedDB (the databases themselves are each test's own).
import 'fake-indexeddb/auto';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { WAKE_MS } from '../../../src/data/burst-wakes.ts';
import type { LinkboardDb } from '../../../src/data/db.ts';
import { whereGroup } from '../../../src/data/group-range.ts';
import { mutate } from '../../../src/data/mutate.ts';
import { useLinkStats } from '../../../src/data/queries/links.ts';
import { ME, makeDirectory, makeLink, uuid } from '../../support/builders.ts';
import { ctx, freshDb } from '../helpers.ts';

async function seeded() {
  const db = freshDb();
  const [first, second] = [makeDirectory({ owner_id: ME }), makeDirectory({ owner_id: ME })];
  await db.link_directories.bulkPut([first, second]);
  await db.saved_links.bulkPut([
    ...Array.from({ length: 5 }, (_, i) => makeLink({ directory_id: first.id, owner_id: ME, title: `First ${i}` })),
    ...Array.from({ length: 3 }, (_, i) => makeLink({ directory_id: second.id, owner_id: ME, title: `Second ${i}` })),
  ]);
  return { db, first: first.id, second: second.id };
}

const create = (db: LinkboardDb, directoryId: string, i: number) =>
  mutate(
    db,
    'link.create',
    { id: uuid(), directory_id: directoryId, url: `https://stats.test/${i}`, title: `Stats ${i}` },
    ctx({ tier: 'pro' }),
  );
const remove = (db: LinkboardDb, id: string) => mutate(db, 'link.delete', { id }, ctx({ tier: 'pro' }));

/**
 * A lone save (at once, as a click's), then the clock stopped: the saves after it are of its
 * burst (within BURST_MS of it), their live queries woken at the beat, when the test moves the timers WAKE_MS.
 */
async function burstAfter(save: () => Promise<unknown>) {
  await save();
  const now = performance.now();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  return () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  };
}

describe('the link counts of the Links screen (useLinkStats)', () => {
  it('are the same object after a beat whose saves leave every count as it was', async () => {
    const { db, first } = await seeded();
    let renders = 0;
    const view = renderHook(() => {
      renders += 1;
      return useLinkStats(db, ME);
    });
    await waitFor(() => expect(view.result.current?.owned).toBe(8));
    const restore = await burstAfter(() => create(db, first, -1));
    try {
      await vi.waitFor(() => expect(view.result.current?.owned).toBe(9));
      const before = view.result.current;
      const reads = vi.spyOn(db.counts, 'where');
      // A link saved and deleted in one beat: the counts were written twice and are as they were.
      const row = await create(db, first, 0);
      await remove(db, row.args.id as string);
      vi.advanceTimersByTime(WAKE_MS);
      // The counts were read again, and the answer is the object the screen holds.
      await vi.waitFor(() => expect(reads).toHaveBeenCalled());
      // Its answer given (IndexedDB's tasks are fake-indexeddb's setImmediate), the hook renders nothing new.
      const rendersBefore = renders;
      for (let i = 0; i < 100; i += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(view.result.current).toBe(before);
      expect(renders).toBe(rendersBefore);
    } finally {
      restore();
    }
    view.unmount();
  });

  it('are right at the beat after a burst of creates and deletes over two directories', async () => {
    const { db, first, second } = await seeded();
    const view = renderHook(() => useLinkStats(db, ME));
    await waitFor(() => expect(view.result.current?.owned).toBe(8));
    const restore = await burstAfter(() => create(db, second, -1));
    try {
      const made: string[] = [];
      for (let i = 0; i < 20; i += 1) made.push((await create(db, i % 4 === 0 ? second : first, i)).args.id as string);
      for (const id of [made[1], made[4], made[7]]) await remove(db, id!);
      const seededOne = await whereGroup(db.saved_links, 'directory_id', first).first();
      await remove(db, seededOne!.id);
      vi.advanceTimersByTime(WAKE_MS);
      // 5 + 15 - 2 (made 1 and 7) - 1 seeded in the first; 3 + 1 + 5 - 1 (made 4) in the second.
      await vi.waitFor(() =>
        expect(view.result.current).toEqual({
          perDirectory: new Map([
            [first, 17],
            [second, 8],
          ]),
          owned: 25,
          ownedDirectories: 2,
        }),
      );
      expect(await whereGroup(db.saved_links, 'directory_id', first).count()).toBe(17);
      expect(await whereGroup(db.saved_links, 'directory_id', second).count()).toBe(8);
    } finally {
      restore();
    }
    view.unmount();
  });
});
