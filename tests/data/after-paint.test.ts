import { describe, expect, it, vi } from 'vitest';
import { BURST_MS } from '../../src/data/after-paint.ts';
import { mutate } from '../../src/data/mutate.ts';
import { watchTransactions } from '../support/watch-transactions.ts';
import { ctx, freshDb } from './helpers.ts';
import { makeDirectory, uuid } from '../support/builders.ts';

describe('a mutation’s transaction after the paint of its predicted change', () => {
  it('paints a predicted change before its transaction starts, and keeps the queue in the order of the calls', async () => {
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      const seen = watchTransactions(db);
      const occurrences = Array.from({ length: 30 }, (_, day) => ({
        id: uuid(),
        title: 'Gym',
        description: null,
        starts_at: new Date(Date.UTC(2026, 2, 16 + day, 7)).toISOString(),
        ends_at: new Date(Date.UTC(2026, 2, 16 + day, 8)).toISOString(),
      }));
      const series = { series_id: uuid(), rule: 'daily' as const, until: '2026-04-15T23:59:00Z', occurrences };
      const first = mutate(db, 'series.create', series, ctx({ tier: 'pro' }));
      // Called right after: a small change, which would otherwise start its transaction first.
      const linkId = uuid();
      const second = mutate(
        db,
        'link.create',
        { id: linkId, directory_id: directory.id, url: 'a.test', title: 'A' },
        ctx({ tier: 'pro' }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Both on screen, nothing written: the series waits for the frame, the link for the series.
      expect(db.pending.forTable('calendar_events', 0)).toHaveLength(30);
      expect(db.pending.forTable('saved_links', 0)).toHaveLength(1);
      expect(seen.writes).toEqual([]);
      expect(frames).toHaveLength(1);
      // Frame after frame: the series' transaction, then the link's.
      const done = Promise.all([first, second]);
      let settled = false;
      void done.then(() => (settled = true));
      while (!settled) {
        frames.shift()?.();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await done;
      const queue = await db.outbox.orderBy('seq').toArray();
      expect(queue.map((row) => row.name)).toEqual(['series.create', 'link.create']);
      expect(await db.calendar_events.count()).toBe(30);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('waits for one paint per burst of mutations, not one per mutation, and again after a pause', async () => {
    let frames = 0;
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
      frames += 1;
      setTimeout(callback, 0);
    });
    // The clock moves only when the test says: a busy machine must not split the burst.
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      // A loop awaiting each call (what a bulk action does): one frame for the lot.
      for (let i = 0; i < 20; i += 1) {
        await mutate(
          db,
          'link.create',
          { id: uuid(), directory_id: directory.id, url: `https://burst.test/${i}`, title: `Burst ${i}` },
          ctx({ tier: 'pro' }),
        );
      }
      expect(await db.saved_links.count()).toBe(20);
      expect(frames).toBe(1);
      // A person's next click comes later: its change is painted first again.
      now += BURST_MS;
      await mutate(
        db,
        'link.create',
        { id: uuid(), directory_id: directory.id, url: 'https://burst.test/later', title: 'Later' },
        ctx({ tier: 'pro' }),
      );
      expect(frames).toBe(2);
      const queue = await db.outbox.orderBy('seq').toArray();
      expect(queue).toHaveLength(21);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
    }
  });

  it('keeps a loop of slow saves one burst: the next save starts as the last one ends, however long it took', async () => {
    let frames = 0;
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
      frames += 1;
      setTimeout(callback, 0);
    });
    // Each save takes three times BURST_MS on this clock (a large workspace on a slow phone).
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      db.saved_links.hook('creating', () => {
        now += 3 * BURST_MS;
      });
      for (let i = 0; i < 10; i += 1) {
        await mutate(
          db,
          'link.create',
          { id: uuid(), directory_id: directory.id, url: `https://slow.test/${i}`, title: `Slow ${i}` },
          ctx({ tier: 'pro' }),
        );
      }
      expect(await db.saved_links.count()).toBe(10);
      // One paint for the loop, not one per save.
      expect(frames).toBe(1);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllGlobals();
    }
  });
});
