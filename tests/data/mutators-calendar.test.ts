/** The calendar's mutators (events, tasks, series, reminders, all-day items): mutators.test.ts has the rest. */
import { beforeEach, describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { NOW, ctx } from './helpers.ts';
import { db, expectRefused, freshMutatorDb, pro } from './mutator-setup.ts';
import { ME, makeEvent, makeProfile, uuid } from '../support/builders.ts';

beforeEach(freshMutatorDb);

describe('events, tasks and series', () => {
  it('validates events and applies create, update, complete and delete', async () => {
    await expectRefused(
      () =>
        mutate(db, 'event.create', { id: uuid(), title: 'x', starts_at: null, ends_at: null, is_task: false }, ctx()),
      'invalid',
      'Start is required for events.',
    );
    await expectRefused(
      () =>
        mutate(
          db,
          'event.create',
          { id: uuid(), title: '', starts_at: '2026-03-16T09:00:00Z', ends_at: null, is_task: false },
          ctx(),
        ),
      'invalid',
    );
    await expectRefused(
      () =>
        mutate(
          db,
          'event.create',
          {
            id: uuid(),
            title: 'x',
            starts_at: '2026-03-16T09:00:00Z',
            ends_at: '2026-03-16T08:00:00Z',
            is_task: false,
          },
          ctx(),
        ),
      'invalid',
    );
    const task = uuid();
    await mutate(
      db,
      'event.create',
      { id: task, title: 'T', starts_at: null, ends_at: null, is_task: true, priority: 'high' },
      ctx(),
    );
    await mutate(db, 'task.set_completed', { id: task, value: true }, ctx());
    await mutate(db, 'event.update', { id: task, title: 'T2', priority: 'low' }, ctx());
    expect(await db.calendar_events.get(task)).toMatchObject({
      title: 'T2',
      is_completed: true,
      priority: 'low',
      is_task: true,
    });
    await expectRefused(() => mutate(db, 'event.update', { id: task, priority: 'urgent' as never }, ctx()), 'invalid');
    await mutate(db, 'event.delete', { id: task }, ctx());
    expect(await db.calendar_events.count()).toBe(0);
    await expectRefused(() => mutate(db, 'event.delete', { id: task }, ctx()), 'not_found');
  });

  it('turns a task into an event and back, counting the month quota, never inside a series', async () => {
    const task = makeEvent({ is_task: true, priority: 'high', starts_at: null, ends_at: null });
    await db.calendar_events.put(task);
    // An event needs a start.
    await expectRefused(() => mutate(db, 'event.update', { id: task.id, is_task: false }, ctx()), 'invalid');
    await mutate(
      db,
      'event.update',
      { id: task.id, is_task: false, starts_at: '2026-03-16T09:00:00Z', ends_at: '2026-03-16T10:00:00Z' },
      ctx(),
    );
    expect(await db.calendar_events.get(task.id)).toMatchObject({ is_task: false, priority: null });
    await mutate(db, 'event.update', { id: task.id, is_task: true, priority: 'low' }, ctx());
    expect(await db.calendar_events.get(task.id)).toMatchObject({ is_task: true, priority: 'low' });

    // A Free user with 10 events this month cannot turn an 11th task into an event.
    await db.calendar_events.bulkPut(
      Array.from({ length: 10 }, () => makeEvent({ created_at: NOW.toISOString(), updated_at: NOW.toISOString() })),
    );
    await expectRefused(
      () => mutate(db, 'event.update', { id: task.id, is_task: false }, ctx()),
      'limit_reached',
      'Upgrade to Pro to create more than 10 events per month.',
    );
    await mutate(db, 'event.update', { id: task.id, is_task: false }, pro);

    const member = makeEvent({ series_id: uuid(), recurrence_rule: 'weekly' });
    await db.calendar_events.put(member);
    await expectRefused(
      () => mutate(db, 'event.update', { id: member.id, is_task: true }, pro),
      'invalid',
      'An event in a recurring series cannot become a task.',
    );
  });

  it('creates, replaces, detaches and deletes a series (Pro)', async () => {
    const occ = (day: number) => ({
      id: uuid(),
      title: 'Gym',
      description: '',
      starts_at: `2026-03-1${day}T07:00:00Z`,
      ends_at: `2026-03-1${day}T08:00:00Z`,
    });
    const first = uuid();
    const occurrences = [occ(6), occ(7), occ(8)];
    await mutate(
      db,
      'series.create',
      { series_id: first, rule: 'daily', until: '2026-03-18T23:59:00Z', occurrences },
      pro,
    );
    expect(await db.calendar_events.where('series_id').equals(first).count()).toBe(3);
    expect(await db.calendar_events.get(occurrences[0]!.id)).toMatchObject({
      recurrence_rule: 'daily',
      description: null,
      is_task: false,
    });
    await mutate(db, 'occurrence.detach', { id: occurrences[0]!.id, title: 'Solo' }, pro);
    expect(await db.calendar_events.get(occurrences[0]!.id)).toMatchObject({
      series_id: null,
      recurrence_rule: 'none',
      title: 'Solo',
    });
    const second = uuid();
    await mutate(
      db,
      'series.replace',
      { old_series_id: first, series_id: second, rule: 'weekly', until: '2026-03-30T00:00:00Z', occurrences: [occ(6)] },
      pro,
    );
    expect(await db.calendar_events.where('series_id').equals(first).count()).toBe(0);
    expect(await db.calendar_events.where('series_id').equals(second).count()).toBe(1);
    await mutate(db, 'series.delete', { series_id: second }, pro);
    expect(await db.calendar_events.count()).toBe(1);
    await expectRefused(
      () =>
        mutate(
          db,
          'series.create',
          { series_id: uuid(), rule: 'yearly' as never, until: '2026-04-01T00:00:00Z', occurrences: [occ(6)] },
          pro,
        ),
      'invalid',
    );
    await expectRefused(
      () =>
        mutate(
          db,
          'series.create',
          { series_id: uuid(), rule: 'daily', until: '2026-04-01T00:00:00Z', occurrences: [] },
          pro,
        ),
      'invalid',
    );
  });
});

describe('reminders', () => {
  const event = (extra: Record<string, unknown> = {}) => ({
    id: uuid(),
    title: 'Dentist',
    starts_at: '2026-03-16T09:00:00Z',
    ends_at: '2026-03-16T10:00:00Z',
    is_task: false,
    ...extra,
  });

  it('sets, changes and clears an event reminder; refuses an offset not offered', async () => {
    const args = event({ reminder_minutes: 15 });
    await mutate(db, 'event.create', args, ctx());
    expect(await db.calendar_events.get(args.id)).toMatchObject({ reminder_minutes: 15 });
    const plain = event();
    await mutate(db, 'event.create', plain, ctx());
    expect(await db.calendar_events.get(plain.id)).toMatchObject({ reminder_minutes: null });
    await mutate(db, 'event.update', { id: args.id, reminder_minutes: 1440 }, ctx());
    expect(await db.calendar_events.get(args.id)).toMatchObject({ reminder_minutes: 1440 });
    await mutate(db, 'event.update', { id: args.id, title: 'Dentist (moved)' }, ctx());
    expect(await db.calendar_events.get(args.id)).toMatchObject({ reminder_minutes: 1440 });
    await mutate(db, 'event.update', { id: args.id, reminder_minutes: null }, ctx());
    expect(await db.calendar_events.get(args.id)).toMatchObject({ reminder_minutes: null });
    await expectRefused(
      () => mutate(db, 'event.create', event({ reminder_minutes: 7 as never }), ctx()),
      'invalid',
      'Choose a reminder from the list.',
    );
    await expectRefused(
      () => mutate(db, 'event.update', { id: args.id, reminder_minutes: '5' as never }, ctx()),
      'invalid',
    );
    const queued = await db.outbox.orderBy('seq').toArray();
    expect(queued[0]?.args).toMatchObject({ reminder_minutes: 15 });
  });

  it('gives every occurrence of a series the reminder, and a detached one its own', async () => {
    const occurrences = [16, 17, 18].map((day) => ({
      id: uuid(),
      title: 'Gym',
      description: null,
      starts_at: `2026-03-${day}T07:00:00Z`,
      ends_at: `2026-03-${day}T08:00:00Z`,
    }));
    const first = uuid();
    const series = { series_id: first, rule: 'daily' as const, until: '2026-03-18T23:59:00Z', occurrences };
    await mutate(db, 'series.create', { ...series, reminder_minutes: 30 }, pro);
    const rows = await db.calendar_events.where('series_id').equals(first).toArray();
    expect(rows.map((row) => row.reminder_minutes)).toEqual([30, 30, 30]);
    await mutate(db, 'occurrence.detach', { id: occurrences[0]!.id, reminder_minutes: 0 }, pro);
    expect(await db.calendar_events.get(occurrences[0]!.id)).toMatchObject({ series_id: null, reminder_minutes: 0 });
    const second = uuid();
    const replacement = occurrences.slice(1).map((occurrence) => ({ ...occurrence, id: uuid() }));
    await mutate(
      db,
      'series.replace',
      { ...series, old_series_id: first, series_id: second, occurrences: replacement, reminder_minutes: 60 },
      pro,
    );
    const replaced = await db.calendar_events.where('series_id').equals(second).toArray();
    expect(replaced.map((row) => row.reminder_minutes)).toEqual([60, 60]);
    await expectRefused(
      () => mutate(db, 'series.create', { ...series, series_id: uuid(), reminder_minutes: 2 as never }, pro),
      'invalid',
    );
  });

  it("sets and clears the profile's default reminder", async () => {
    await db.user_profiles.put(makeProfile());
    await mutate(db, 'profile.update', { default_reminder_minutes: 15 }, ctx());
    expect(await db.user_profiles.get(ME)).toMatchObject({ default_reminder_minutes: 15, username: 'me' });
    await mutate(db, 'profile.update', { default_reminder_minutes: null }, ctx());
    expect(await db.user_profiles.get(ME)).toMatchObject({ default_reminder_minutes: null });
    await expectRefused(
      () => mutate(db, 'profile.update', { default_reminder_minutes: 45 as never }, ctx()),
      'invalid',
      'Choose a reminder from the list.',
    );
  });

  it("sets the profile's theme, and refuses one that is not light, dark or system", async () => {
    await db.user_profiles.put(makeProfile());
    await mutate(db, 'profile.update', { theme: 'dark' }, ctx());
    expect(await db.user_profiles.get(ME)).toMatchObject({ theme: 'dark', username: 'me' });
    await expectRefused(() => mutate(db, 'profile.update', { theme: 'purple' as never }, ctx()), 'invalid');
    expect(await db.user_profiles.get(ME)).toMatchObject({ theme: 'dark' });
  });
});

describe('all-day items', () => {
  // 27 Nov in UTC (the context's zone), as the dialog stores it: midnight to the next midnight.
  const day = (extra: Record<string, unknown> = {}) => ({
    id: uuid(),
    title: 'Offsite',
    starts_at: '2026-11-27T00:00:00.000Z',
    ends_at: '2026-11-28T00:00:00.000Z',
    is_task: false,
    all_day: true,
    ...extra,
  });

  it('stores all_day on create, update and detach, and on every occurrence of a series', async () => {
    const event = day();
    await mutate(db, 'event.create', event, pro);
    expect(await db.calendar_events.get(event.id)).toMatchObject({ all_day: true });
    await mutate(db, 'event.update', { id: event.id, all_day: false, ends_at: '2026-11-27T01:00:00.000Z' }, pro);
    expect(await db.calendar_events.get(event.id)).toMatchObject({ all_day: false });
    const plain = day({ all_day: undefined });
    await mutate(db, 'event.create', plain, pro);
    expect(await db.calendar_events.get(plain.id)).toMatchObject({ all_day: false });
    const series = uuid();
    const occurrences = [day(), day({ starts_at: '2026-12-04T00:00:00.000Z', ends_at: '2026-12-05T00:00:00.000Z' })];
    const strip = ({ id, title, starts_at, ends_at }: ReturnType<typeof day>) => ({
      id,
      title,
      description: null,
      starts_at,
      ends_at,
    });
    await mutate(
      db,
      'series.create',
      {
        series_id: series,
        rule: 'weekly',
        until: '2026-12-04T23:59:00.000Z',
        occurrences: occurrences.map(strip),
        all_day: true,
      },
      pro,
    );
    expect((await db.calendar_events.where('series_id').equals(series).toArray()).map((r) => r.all_day)).toEqual([
      true,
      true,
    ]);
    await mutate(db, 'occurrence.detach', { id: occurrences[0]!.id, all_day: false }, pro);
    expect(await db.calendar_events.get(occurrences[0]!.id)).toMatchObject({ all_day: false, series_id: null });
  });

  it('refuses an all-day item without a date, or an all-day event that does not end after its start', async () => {
    await expectRefused(
      () => mutate(db, 'event.create', day({ is_task: true, starts_at: null, ends_at: null }), pro),
      'invalid',
      'An all-day item needs a date.',
    );
    await expectRefused(
      () => mutate(db, 'event.create', day({ ends_at: '2026-11-27T00:00:00.000Z' }), pro),
      'invalid',
      'The end cannot be before the start.',
    );
    await expectRefused(() => mutate(db, 'event.create', day({ all_day: 'yes' as never }), pro), 'invalid');
  });
});
