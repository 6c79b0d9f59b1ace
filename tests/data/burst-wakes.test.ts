// Dexie's liveQuery needs a global indexedDB (the databases themselves are each test's own).
import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { whereGroup } from '../../src/data/group-range.ts';
import { WAKE_MS } from '../../src/data/burst-wakes.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import { makeDirectory, uuid } from '../support/builders.ts';
import { ctx, freshDb } from './helpers.ts';

describe('the live queries of a burst of saves', () => {
  it('wake once per WAKE_MS, not at each commit, while every save is durable as it resolves, and then read all of them', async () => {
    // Timers and the clock move only when the test says: a busy machine must not split the burst
    // (IndexedDB's own tasks still run: fake-indexeddb schedules them with setImmediate).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
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
        return whereGroup(db.saved_links, 'directory_id', directory.id).toArray();
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
      await save(0);
      await vi.waitFor(() => expect(shown.at(-1)).toHaveLength(1));
      const before = reads;
      // 100 saves in a loop, no timer's time passing meanwhile: each committed when its call resolves, in order.
      for (let i = 1; i <= 100; i += 1) {
        const row = await save(i);
        const link = await db.saved_links.get(row.args.id as string);
        expect(link?.title).toBe(`Wake ${i}`);
        expect((await db.outbox.orderBy('seq').last())?.id).toBe(row.id);
      }
      // The screen has not read again: no read transaction for the next save to wait behind.
      expect(reads).toBe(before);
      expect(shown.at(-1)).toHaveLength(1);
      // WAKE_MS later it is woken once: it reads every save, not a cached answer from before them.
      vi.advanceTimersByTime(WAKE_MS);
      await vi.waitFor(() => expect(shown.at(-1)).toHaveLength(101));
      expect(reads - before).toBeLessThanOrEqual(2);
      expect((await db.outbox.toArray()).map((row) => row.args.title)).toEqual(
        Array.from({ length: 101 }, (_, i) => `Wake ${i}`),
      );
      subscription.unsubscribe();
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it("tell the screens of the pending writes once per WAKE_MS, and a lone save's at once", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      let told = 0;
      db.pending.subscribe(() => (told += 1));
      const save = (i: number) =>
        mutate(
          db,
          'link.create',
          { id: uuid(), directory_id: directory.id, url: `https://tell.test/${i}`, title: `Tell ${i}` },
          ctx({ tier: 'pro' }),
        );
      // A lone save: its prediction is told in the click's own task, then its writes and commit.
      const first = save(0);
      expect(told).toBe(1);
      await first;
      const lone = told;
      // 50 saves in a loop: none told before WAKE_MS has passed, though each is shown to a screen that renders.
      for (let i = 1; i <= 50; i += 1) await save(i);
      expect(told).toBe(lone);
      expect(db.pending.forTable('saved_links', 0)).toHaveLength(51);
      // WAKE_MS later they are told once.
      vi.advanceTimersByTime(WAKE_MS);
      expect(told).toBe(lone + 1);
      // After a pause, a save is told at once again.
      now += 1_000;
      const later = save(99);
      expect(told).toBe(lone + 2);
      await later;
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });
});
