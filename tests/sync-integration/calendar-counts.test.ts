/**
 * The calendar's numbers from counts kept per month (src/data/queries/calendar-counts.ts) on
 * devices syncing with the local stack: rows the server holds pulled from scratch, pushes and the
 * pulls of another device, a push whose answer is lost (the queued change laid again over the
 * pulled rows), deletes of an event and of a series, and the clock moving on past a day and a
 * month. At each step the kept month counts and the screen's numbers must be those of the rows.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { dbKinds } from '../support/db.ts';
import { expectCounters, expectMonthCounts } from '../support/calendar-truth.ts';
import { localView, serverView, signUpUser, syncSuite, type Device } from '../support/sync-harness.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date('2026-11-27T15:00:00.000Z');
/** The clock at the screen's reads: now, the next day, the turn of the month and of the year. */
const clocks = [
  now,
  new Date(now.getTime() + DAY),
  new Date('2026-11-30T23:59:59.999Z'),
  new Date('2026-12-01T00:00:00.000Z'),
  new Date('2027-01-01T00:00:00.000Z'),
];

async function expectRight(device: Device): Promise<void> {
  await expectMonthCounts(device.db);
  for (const at of clocks) await expectCounters(device.db, at);
}

describe.each(dbKinds)('the calendar counted by month, synced (%s)', (kind) => {
  const suite = syncSuite(kind);
  const { device } = suite;

  it('pulls the rows the server holds, then pushes, edits across months, deletes and a lost answer', async () => {
    const user = await signUpUser(suite.stack, { tier: 'pro' });
    // Rows as the bench seeds them: events every 9 hours over 4 months around now, some without
    // an end, tasks pending and completed, written on the server in one statement.
    await suite.stack.db.query(
      `insert into public.calendar_events (title, starts_at, ends_at, is_task, priority, is_completed, owner_id)
       select 'Seeded ' || i, $2::timestamptz + i * interval '9 hours',
              case when i % 7 = 0 then null else $2::timestamptz + i * interval '9 hours' + interval '50 minutes' end,
              i % 5 = 0, case when i % 5 = 0 then 'low' end, i % 10 = 0, $1::uuid
       from generate_series(-160, 160) i`,
      [user.id, now.toISOString()],
    );
    const one = device('one', user);
    const two = device('two', user);
    expect(await one.engine.sync()).toBe('synced');
    expect(await one.db.calendar_events.count()).toBe(321);
    await expectRight(one);

    // Made on one, pulled by two: a series over the turn of the month, an event, a task.
    const context = one.context();
    const series = randomUUID();
    const occurrences = Array.from({ length: 6 }, (_, i) => {
      const start = Date.parse('2026-11-20T09:00:00Z') + i * 7 * DAY;
      return {
        id: randomUUID(),
        title: 'Weekly',
        description: null,
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(start + HOUR).toISOString(),
      };
    });
    await mutate(
      one.db,
      'series.create',
      { series_id: series, rule: 'weekly', until: '2026-12-25', occurrences },
      context,
    );
    const event = randomUUID();
    const at = { starts_at: '2026-11-30T22:00:00Z', ends_at: '2026-12-01T01:00:00Z' };
    await mutate(one.db, 'event.create', { id: event, title: 'Late', is_task: false, ...at }, context);
    await expectRight(one);
    expect(await one.engine.sync()).toBe('synced');
    expect(await two.engine.sync()).toBe('synced');
    await expectRight(two);

    // Edits moving an event to another month, a task completed, deletes of an event and a series.
    const seeded = await two.db.calendar_events
      .orderBy('id')
      .filter((row) => !row.is_task)
      .first();
    const task = await two.db.calendar_events
      .orderBy('id')
      .filter((row) => row.is_task && !row.is_completed)
      .first();
    const moved = { starts_at: '2027-02-01T10:00:00Z', ends_at: '2027-02-01T11:00:00Z' };
    await mutate(two.db, 'event.update', { id: seeded!.id, ...moved }, two.context());
    await mutate(two.db, 'task.set_completed', { id: task!.id, value: true }, two.context());
    await mutate(two.db, 'event.delete', { id: event }, two.context());
    await mutate(two.db, 'series.delete', { series_id: series }, two.context());
    await expectRight(two);
    expect(await two.engine.sync()).toBe('synced');
    await expectRight(two);
    expect(await one.engine.sync()).toBe('synced');
    await expectRight(one);

    // A push the server commits whose answer is lost: the change stays queued, laid again over
    // the rows the next pull brings (another device's edit of the same event among them).
    const other = await one.db.calendar_events
      .orderBy('id')
      .filter((row) => !row.is_task)
      .last();
    await mutate(two.db, 'event.update', { id: other!.id, title: 'From two' }, two.context());
    expect(await two.engine.sync()).toBe('synced');
    const earlier = { starts_at: '2026-10-01T08:00:00Z', ends_at: '2026-10-01T09:00:00Z' };
    await mutate(one.db, 'event.update', { id: other!.id, ...earlier }, context);
    one.transport.dropPushAnswers = 1;
    await one.engine.sync();
    await expectRight(one);
    expect(await one.engine.sync()).toBe('synced');
    expect(await one.db.outbox.count()).toBe(0);
    expect(await one.db.calendar_events.get(other!.id)).toMatchObject({ title: 'From two' });
    await expectRight(one);
    expect(await two.engine.sync()).toBe('synced');
    await expectRight(two);
    expect(await localView(two.db)).toEqual(await serverView(user));
    expect(await localView(one.db)).toEqual(await serverView(user));
  });
});
