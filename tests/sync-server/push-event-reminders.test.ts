import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb } from '../support/db.ts';
import { mutation, pull, push, uuid } from './sync.ts';

/** Reminders: the apply functions write reminder_minutes and default_reminder_minutes. */
function occurrences(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: uuid(),
    title: 'Gym',
    description: null,
    starts_at: new Date(Date.UTC(2031, 0, 1 + i, 7)).toISOString(),
    ends_at: new Date(Date.UTC(2031, 0, 1 + i, 8)).toISOString(),
  }));
}

const event = (extra: Record<string, unknown> = {}) => ({
  id: uuid(),
  title: 'Dentist',
  starts_at: '2031-02-01T10:00:00Z',
  ends_at: '2031-02-01T11:00:00Z',
  is_task: false,
  ...extra,
});

describe.each(dbKinds)('sync_push reminders (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('sets, keeps, changes and clears an event or task reminder', async () => {
    const user = await createUser(db);
    const withReminder = event({ reminder_minutes: 5 });
    const task = {
      id: uuid(),
      title: 'Pay rent',
      is_task: true,
      starts_at: '2031-02-01T09:00:00Z',
      reminder_minutes: 0,
    };
    const plain = event();
    const results = await push(
      db,
      user,
      mutation('event.create', withReminder),
      mutation('event.create', task),
      mutation('event.create', plain),
      mutation('event.update', { id: withReminder.id, title: 'Dentist (moved)' }),
      mutation('event.update', { id: plain.id, reminder_minutes: 1440 }),
      mutation('event.update', { id: task.id, reminder_minutes: null }),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill('applied'));
    expect(results[0]!.rows.calendar_events![0]).toMatchObject({ reminder_minutes: 5 });
    expect(results[1]!.rows.calendar_events![0]).toMatchObject({ reminder_minutes: 0 });
    expect(results[2]!.rows.calendar_events![0]).toMatchObject({ reminder_minutes: null });
    expect(results[3]!.rows.calendar_events![0]).toMatchObject({ title: 'Dentist (moved)', reminder_minutes: 5 });
    expect(results[4]!.rows.calendar_events![0]).toMatchObject({ reminder_minutes: 1440 });
    expect(results[5]!.rows.calendar_events![0]).toMatchObject({ reminder_minutes: null });
    const page = await pull(db, user);
    const pulled = page.changes.calendar_events!.find((row) => row.id === plain.id);
    expect(pulled).toMatchObject({ reminder_minutes: 1440 });
  });

  it('refuses a reminder that is not one of the offsets', async () => {
    const user = await createUser(db);
    const existing = event({ reminder_minutes: 15 });
    await push(db, user, mutation('event.create', existing));
    const refused = await push(
      db,
      user,
      mutation('event.create', event({ reminder_minutes: 7 })),
      mutation('event.create', event({ reminder_minutes: '5' })),
      mutation('event.update', { id: existing.id, reminder_minutes: 5.5 }),
      mutation('profile.update', { default_reminder_minutes: -1 }),
    );
    for (const result of refused) {
      expect(result).toMatchObject({
        status: 'rejected',
        code: 'invalid',
        message: 'Choose a reminder from the list.',
      });
    }
    const [again] = await push(db, user, mutation('event.update', { id: existing.id, title: 'Same reminder' }));
    expect(again!.rows.calendar_events![0]).toMatchObject({ reminder_minutes: 15 });
  });

  it('gives every occurrence of a series (created or replaced) the reminder; a detached one its own', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const series = uuid();
    const first = occurrences(3);
    const base = { rule: 'daily', until: '2031-01-03T23:00:00Z' };
    const [created] = await push(
      db,
      user,
      mutation('series.create', { ...base, series_id: series, occurrences: first, reminder_minutes: 30 }),
    );
    expect(created!.rows.calendar_events!.map((row) => row.reminder_minutes)).toEqual([30, 30, 30]);
    const [detached] = await push(db, user, mutation('occurrence.detach', { id: first[0]!.id, reminder_minutes: 60 }));
    expect(detached!.rows.calendar_events![0]).toMatchObject({ series_id: null, reminder_minutes: 60 });
    const [replaced] = await push(
      db,
      user,
      mutation('series.replace', {
        ...base,
        old_series_id: series,
        series_id: uuid(),
        occurrences: occurrences(2),
        reminder_minutes: 1440,
      }),
    );
    expect(replaced!.rows.calendar_events!.map((row) => row.reminder_minutes)).toEqual([1440, 1440]);
    const [none] = await push(
      db,
      user,
      mutation('series.create', { ...base, series_id: uuid(), occurrences: occurrences(2) }),
    );
    expect(none!.rows.calendar_events!.map((row) => row.reminder_minutes)).toEqual([null, null]);
    const [bad] = await push(
      db,
      user,
      mutation('series.create', { ...base, series_id: uuid(), occurrences: occurrences(2), reminder_minutes: 3 }),
    );
    expect(bad).toMatchObject({ status: 'rejected', code: 'invalid' });
  });

  it("sets and clears the profile's default reminder, leaving the other fields", async () => {
    const user = await createUser(db);
    const [set] = await push(db, user, mutation('profile.update', { default_reminder_minutes: 15 }));
    expect(set!.status).toBe('applied');
    expect(set!.rows.user_profiles![0]).toMatchObject({ default_reminder_minutes: 15 });
    const [zone] = await push(db, user, mutation('profile.update', { time_zone: 'Europe/Paris' }));
    expect(zone!.rows.user_profiles![0]).toMatchObject({ default_reminder_minutes: 15, time_zone: 'Europe/Paris' });
    const [cleared] = await push(db, user, mutation('profile.update', { default_reminder_minutes: null }));
    expect(cleared!.rows.user_profiles![0]).toMatchObject({ default_reminder_minutes: null });
  });
});
