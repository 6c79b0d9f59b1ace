import { describe, expect, it, vi } from 'vitest';
import { BURST_MS } from '../../src/data/after-paint.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { OutboxRow } from '../../src/data/rows.ts';
import { makeDirectory, uuid } from '../support/builders.ts';
import { ctx, freshDb } from './helpers.ts';

describe('telling the sync of a burst of saves', () => {
  it('tells a lone save at once, a burst once and then its latest commit, and a save after a pause at once', async () => {
    // The clock moves only when the test says: a busy machine must not split the burst.
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const db = freshDb();
      const directory = makeDirectory();
      await db.link_directories.put(directory);
      const told: OutboxRow[] = [];
      db.onMutation((row) => told.push(row));
      const save = (i: number) =>
        mutate(
          db,
          'link.create',
          { id: uuid(), directory_id: directory.id, url: `https://burst.test/${i}`, title: `Burst ${i}` },
          ctx({ tier: 'pro' }),
        );
      // The first save: told as soon as it is committed.
      const first = await save(0);
      expect(told).toEqual([first]);
      // 30 more in a loop (the clock still): none told yet, each committed when its call resolves.
      let last = first;
      for (let i = 1; i <= 30; i += 1) last = await save(i);
      expect(await db.outbox.count()).toBe(31);
      expect(told).toHaveLength(1);
      // Once the burst's window has passed: one telling, of its latest commit.
      now += BURST_MS;
      await vi.waitFor(() => expect(told).toHaveLength(2));
      expect(told[1]).toEqual(last);
      // A save after a pause is told at once again.
      now += BURST_MS;
      const later = await save(99);
      expect(told).toHaveLength(3);
      expect(told[2]).toEqual(later);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
