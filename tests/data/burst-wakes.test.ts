// Dexie's liveQuery needs a global indexedDB (the databases themselves are each test's own).
import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import { makeDirectory, uuid } from '../support/builders.ts';
import { ctx, freshDb } from './helpers.ts';

/** Resolves `promise` while running the frames it waits for (a save after a pause waits for a paint). */
async function withFrames<T>(frames: (() => void)[], promise: Promise<T>): Promise<T> {
  let settled = false;
  void promise.finally(() => (settled = true));
  while (!settled) {
    frames.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return promise;
}

describe('the live queries of a burst of saves', () => {
  it('wake at most once a frame while every save is durable as it resolves, and then read all of them', async () => {
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    // The clock moves only when the test says: a busy machine must not split the burst.
    vi.spyOn(performance, 'now').mockImplementation(() => 1_000);
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      let reads = 0;
      const shown: LinkRow[][] = [];
      // A screen's live read of the directory's links (a cached query: Dexie keeps its result).
      const subscription = liveQuery(() => {
        reads += 1;
        return db.saved_links.where('directory_id').equals(directory.id).toArray();
      }).subscribe((rows) => shown.push(rows));
      await vi.waitFor(() => expect(shown).toHaveLength(1));
      const save = (i: number) =>
        mutate(
          db,
          'link.create',
          { id: uuid(), directory_id: directory.id, url: `https://wake.test/${i}`, title: `Wake ${i}` },
          ctx({ tier: 'pro' }),
        );
      // A lone save wakes the screen as it commits.
      await withFrames(frames, save(0));
      await vi.waitFor(() => expect(shown.at(-1)).toHaveLength(1));
      const before = reads;
      // 100 saves in a loop, no frame painted meanwhile: each committed when its call resolves, in order.
      const started = Date.now();
      for (let i = 1; i <= 100; i += 1) {
        const row = await save(i);
        const link = await db.saved_links.get(row.args.id as string);
        expect(link?.title).toBe(`Wake ${i}`);
        expect((await db.outbox.orderBy('seq').last())?.id).toBe(row.id);
      }
      const elapsed = Date.now() - started;
      // Woken only by the fallback of a frame not painted (every 100 ms), not by each commit.
      expect(reads - before).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 100));
      expect(reads - before).toBeLessThan(50);
      // The next frame wakes it: it reads every save, not a cached answer from before them.
      frames.splice(0).forEach((frame) => frame());
      await vi.waitFor(() => expect(shown.at(-1)).toHaveLength(101));
      expect((await db.outbox.toArray()).map((row) => row.args.title)).toEqual(
        Array.from({ length: 101 }, (_, i) => `Wake ${i}`),
      );
      subscription.unsubscribe();
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
    }
  });
});
