// Dexie's liveQuery needs a global indexedDB (the databases themselves are each test's own).
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { WAKE_MS } from '../../src/data/burst-wakes.ts';
import { mutate } from '../../src/data/mutate.ts';
import { makeDirectory, uuid } from '../support/builders.ts';
import { ctx, freshDb } from './helpers.ts';

describe('the pending writes of a burst of saves', () => {
  it('keep every save in order as it resolves, then forget the burst in a few tellings, not one per save', async () => {
    // Timers move only when the test says (IndexedDB's own tasks still run: setImmediate).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(performance, 'now').mockImplementation(() => 1_000);
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      const ids: string[] = [];
      for (let i = 0; i < 60; i += 1) {
        const id = uuid();
        ids.push(id);
        await mutate(
          db,
          'link.create',
          { id, directory_id: directory.id, url: `https://burst.test/${i}`, title: `Burst ${i}` },
          ctx({ tier: 'pro' }),
        );
        // Each save's row in place of its prediction, after the others, committed as it resolves.
        const held = db.pending.forTable('saved_links', 0);
        expect(held.map((write) => write.key)).toEqual(ids);
        expect(held.every((write) => write.epoch !== null && write.row?.title !== undefined)).toBe(true);
      }
      vi.advanceTimersByTime(WAKE_MS);
      let told = 0;
      db.pending.subscribe(() => (told += 1));
      // Ten seconds and a little after the burst, its writes are forgotten: every query has read them.
      vi.advanceTimersByTime(12_000);
      expect(db.pending.forTable('saved_links', 0)).toEqual([]);
      expect(told).toBeGreaterThan(0);
      expect(told).toBeLessThanOrEqual(3);
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });
});
