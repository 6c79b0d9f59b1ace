/**
 * The calendar's numbers from counts kept per month (queries/calendar-counts.ts): at every instant
 * they must be what the rules give over every row, through every kind of write, in a database made
 * before the month counts were kept too; and the overdue tasks are read a window at a time.
 */
import { describe, expect, it } from 'vitest';
import { CALENDAR_MONTH_COUNTS, MONTH_COUNTS_KEPT } from '../../src/data/calendar-index.ts';
import { countKeyRange } from '../../src/data/index-counts.ts';
import { mutate } from '../../src/data/mutate.ts';
import { keepMonthCounts } from '../../src/data/queries/calendar-counts.ts';
import { readCalendarLists } from '../../src/data/queries/events.ts';
import type { EventRow } from '../../src/data/rows.ts';
import { classifyCalendar } from '../../src/domain/calendar-classify.ts';
import { ctx, freshDb } from './helpers.ts';
import { makeEvent } from '../support/builders.ts';
import { expectCounters, expectMonthCounts } from '../support/calendar-truth.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date('2026-03-15T12:00:00.000Z');

/** Events every 17 hours from 200 days before `now` to 200 after, some over days, one with no date. */
function events(): EventRow[] {
  const rows: EventRow[] = [];
  for (let i = -280; i <= 280; i += 1) {
    const start = now.getTime() + i * 17 * HOUR;
    const length = i % 13 === 0 ? 40 * DAY : i % 5 === 0 ? 0 : HOUR;
    const end = i % 11 === 0 ? null : new Date(start + length).toISOString();
    rows.push(makeEvent({ title: `e${i}`, starts_at: new Date(start).toISOString(), ends_at: end }));
  }
  // The server's form of an instant ('+00:00', microseconds).
  rows.push(makeEvent({ title: 'server form', starts_at: '2026-04-30T23:59:59.999999+00:00', ends_at: null }));
  rows.push(makeEvent({ title: 'no date', starts_at: null, ends_at: null }));
  return rows;
}

/** Instants at and around the turn of months and years, and the milliseconds of the rows' own starts. */
const instants = [
  now,
  new Date('2026-03-01T00:00:00.000Z'),
  new Date('2026-02-28T23:59:59.999Z'),
  new Date('2026-04-30T23:59:59.999Z'),
  new Date('2026-05-01T00:00:00.000Z'),
  new Date('2025-12-31T23:59:59.999Z'),
  new Date('2027-01-01T00:00:00.000Z'),
  new Date(now.getTime() + 17 * HOUR),
  new Date(now.getTime() - 17 * HOUR + 1),
  new Date('2024-01-01T00:00:00.000Z'),
  new Date('2029-01-01T00:00:00.000Z'),
];

describe('the calendar counted by month', () => {
  it('a new database keeps them from its first row', async () => {
    const db = freshDb();
    expect(await db.counts.get(MONTH_COUNTS_KEPT)).toBeTruthy();
    await db.calendar_events.bulkPut(events());
    await expectMonthCounts(db);
    for (const at of instants) await expectCounters(db, at);
    db.close();
  });

  it('follow edits that move an event across months, completions, deletions, mutations and clears', async () => {
    const db = freshDb();
    const rows = events();
    await db.calendar_events.bulkPut(rows);
    // A start moved a month on, an end moved back, an event becoming a task and back.
    await db.calendar_events.update(rows[10]!.id, { starts_at: '2026-06-01T10:00:00Z', ends_at: null });
    await db.calendar_events.update(rows[20]!.id, { ends_at: '2025-01-01T00:00:00Z' });
    await db.calendar_events.update(rows[30]!.id, { is_task: true });
    await db.calendar_events.bulkPut(rows.slice(100, 200).map((row) => ({ ...row, starts_at: null, ends_at: null })));
    await db.calendar_events.bulkDelete(rows.slice(300, 400).map((row) => row.id));
    await db.calendar_events.where('[_kind+_at]').between(['e', '2026-03'], ['e', '2026-04']).delete();
    const context = ctx({ tier: 'pro' });
    const made = makeEvent();
    await mutate(db, 'event.create', { ...made, description: null, priority: null }, context);
    await mutate(db, 'event.update', { id: made.id, starts_at: '2026-09-09T09:00:00Z', ends_at: null }, context);
    await mutate(db, 'event.delete', { id: rows[500]!.id }, context);
    await expectMonthCounts(db);
    for (const at of instants) await expectCounters(db, at);
    await db.calendar_events.clear();
    expect(await db.counts.get(MONTH_COUNTS_KEPT)).toBeTruthy();
    await db.calendar_events.bulkPut(rows.slice(0, 50));
    await expectMonthCounts(db);
    await expectCounters(db, now);
    db.close();
  });

  it('a database made before them: counted by walking, then counted once from its rows', async () => {
    const db = freshDb();
    const rows = events();
    await db.calendar_events.bulkPut(rows);
    // As a database of the version before: no month counts, nor the key saying they are kept.
    await db.counts.delete(MONTH_COUNTS_KEPT);
    for (const { name } of CALENDAR_MONTH_COUNTS) {
      const { lower, upper } = countKeyRange('calendar_events', name);
      await db.counts.where('key').between(lower, upper, true, true).delete();
    }
    // Writes before they are counted move counts that are not kept yet.
    await db.calendar_events.bulkDelete(rows.slice(0, 30).map((row) => row.id));
    for (const at of instants) await expectCounters(db, at);
    await keepMonthCounts(db);
    expect(await db.counts.get(MONTH_COUNTS_KEPT)).toBeTruthy();
    await expectMonthCounts(db);
    for (const at of instants) await expectCounters(db, at);
    // Counted once: a second pass leaves them as they are.
    await db.calendar_events.bulkDelete(rows.slice(30, 60).map((row) => row.id));
    await keepMonthCounts(db);
    await expectMonthCounts(db);
    db.close();
  });

  it('the first read of such a database starts the counting by itself', async () => {
    const db = freshDb();
    await db.calendar_events.bulkPut(events());
    await db.counts.delete(MONTH_COUNTS_KEPT);
    await expectCounters(db, now);
    await expect.poll(async () => Boolean(await db.counts.get(MONTH_COUNTS_KEPT))).toBe(true);
    await expectMonthCounts(db);
    db.close();
  });
});

describe('the overdue tasks, a window at a time', () => {
  it('reads the first ones, oldest first, and says whether more follow', async () => {
    const db = freshDb();
    const tasks = Array.from({ length: 30 }, (_, i) =>
      makeEvent({
        title: `task ${i}`,
        is_task: true,
        priority: 'low',
        starts_at: new Date(now.getTime() - (i + 1) * DAY).toISOString(),
        ends_at: null,
      }),
    );
    await db.calendar_events.bulkPut(tasks);
    const all = classifyCalendar(await db.calendar_events.toArray(), now, 'UTC').overdue;
    const read = await readCalendarLists(db, now, 'UTC', 10);
    const overdue = classifyCalendar(read.rows, now, 'UTC').overdue;
    expect(overdue.map((task) => task.title)).toEqual(all.slice(0, 10).map((task) => task.title));
    expect(overdue[0]!.title).toBe('task 29');
    expect(read.overdueMore).toBe(true);
    expect((await readCalendarLists(db, now, 'UTC', 30)).overdueMore).toBe(false);
    expect((await readCalendarLists(db, now, 'UTC')).rows).toHaveLength(30);
    db.close();
  });
});
