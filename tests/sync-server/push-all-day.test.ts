import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb } from '../support/db.ts';
import { mutation, push, snapshot, uuid } from './sync.ts';

/**
 * All-day items: the apply functions take all_day on event.create/update, occurrence.detach and
 * series.create/replace; the row rule refuses an all-day item without a date, and an all-day
 * event that does not end after its start.
 */
const day = (extra: Record<string, unknown> = {}) => ({
  id: uuid(),
  title: 'Offsite',
  // 27 Nov in Berlin, as the dialog stores it: midnight to the midnight after.
  starts_at: '2031-11-26T23:00:00Z',
  ends_at: '2031-11-27T23:00:00Z',
  is_task: false,
  all_day: true,
  ...extra,
});

describe.each(dbKinds)('sync_push all-day items (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('creates, changes and keeps all_day on events, tasks and series', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const event = day();
    const task = day({ title: 'Taxes', is_task: true, ends_at: '2031-11-26T23:00:00Z' });
    const timed = day({ title: 'Call', all_day: undefined, starts_at: '2031-11-27T10:00:00Z' });
    const series = uuid();
    const occurrences = [0, 1].map((week) => ({
      id: uuid(),
      title: 'Gym day',
      description: null,
      starts_at: new Date(Date.UTC(2031, 10, 26 + 7 * week, 23)).toISOString(),
      ends_at: new Date(Date.UTC(2031, 10, 27 + 7 * week, 23)).toISOString(),
    }));
    const results = await push(
      db,
      user,
      mutation('event.create', event),
      mutation('event.create', task),
      mutation('event.create', timed),
      mutation('event.update', { id: event.id, title: 'Offsite (moved)' }),
      mutation('event.update', { id: timed.id, all_day: true, starts_at: '2031-11-26T23:00:00Z' }),
      mutation('series.create', {
        series_id: series,
        rule: 'weekly',
        until: '2031-12-04T22:59:00Z',
        occurrences,
        all_day: true,
      }),
      mutation('occurrence.detach', { id: occurrences[0]!.id, all_day: false, ends_at: '2031-11-27T01:00:00Z' }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(7).fill('applied'));
    const row = (index: number) => results[index]!.rows.calendar_events!;
    expect(row(0)[0]).toMatchObject({ all_day: true, starts_at: '2031-11-26T23:00:00+00:00' });
    expect(row(1)[0]).toMatchObject({ all_day: true, is_task: true });
    expect(row(2)[0]).toMatchObject({ all_day: false });
    expect(row(3)[0]).toMatchObject({ all_day: true, title: 'Offsite (moved)' });
    expect(row(4)[0]).toMatchObject({ all_day: true });
    expect(row(5).map((r) => r.all_day)).toEqual([true, true]);
    expect(row(6)[0]).toMatchObject({ all_day: false, series_id: null });
  });

  it('refuses an all-day item without a date, an all-day event ending at its start, and a non-boolean', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const before = await snapshot(db);
    const results = await push(
      db,
      user,
      mutation('event.create', day({ is_task: true, starts_at: null, ends_at: null })),
      mutation('event.create', day({ ends_at: '2031-11-26T23:00:00Z' })),
      mutation('event.create', day({ all_day: 'yes' })),
      mutation('event.create', day({ all_day: 1 })),
    );
    expect(results.map((r) => [r.status, r.code])).toEqual(Array(4).fill(['rejected', 'invalid']));
    expect(results[0]!.message).toBe('An all-day item needs a date.');
    expect(results[1]!.message).toBe('The end cannot be before the start.');
    expect(await snapshot(db)).toEqual(before);
  });
});
