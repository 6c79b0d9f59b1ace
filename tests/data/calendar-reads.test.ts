/**
 * The calendar's windowed reads: what the calendar, Upcoming and the
 * dashboard read through the local keys (calendar-index.ts) must give exactly the lists and
 * numbers the same rules give over every row, while reading only the rows those lists hold.
 */
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { calendarKeys, monthsTouched } from '../../src/data/calendar-index.ts';
import { keptCount } from '../../src/data/counts.ts';
import { dbName, openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { readCalendarLists, readDayItems, readUpcoming } from '../../src/data/queries/events.ts';
import type { EventRow } from '../../src/data/rows.ts';
import { dexieStores } from '../../src/data/synced-tables.ts';
import {
  classifyCalendar,
  itemsByDay,
  monthGrid,
  upcomingLists,
  weekDays,
  type CalendarClassification,
} from '../../src/domain/calendar-classify.ts';
import { countsAsEventThisMonth } from '../../src/domain/limits.ts';
import { freshDb } from './helpers.ts';
import { ME, makeEvent } from '../support/builders.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date('2026-03-15T12:00:00.000Z');

/** A deterministic pseudo-random source, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * `n` items around `now`: events (some over several days, some over months), pending and
 * completed tasks, undated tasks; instants in the server's form ('+00:00', microseconds) and in
 * the device's ('Z', milliseconds), each at its own millisecond so no two sort alike.
 */
function items(n: number, seed = 1): EventRow[] {
  const next = random(seed);
  const serverForm = (ms: number) => new Date(ms).toISOString().replace('Z', '123+00:00');
  const instant = (ms: number) => (next() < 0.5 ? serverForm(ms) : new Date(ms).toISOString());
  return Array.from({ length: n }, (_, i) => {
    const start = now.getTime() + Math.round((next() - 0.6) * 120 * DAY) + i;
    const kind = next();
    const created = now.getTime() - Math.round(next() * 60 * DAY) - i;
    const base = { created_at: instant(created), updated_at: instant(created + Math.round(next() * DAY)) };
    if (kind < 0.55) {
      const length = next() < 0.1 ? Math.round(next() * 90 * DAY) : Math.round(next() * 3 * HOUR);
      return makeEvent({ ...base, title: `event ${i}`, starts_at: instant(start), ends_at: instant(start + length) });
    }
    const undated = next() < 0.1;
    return makeEvent({
      ...base,
      title: `task ${i}`,
      is_task: true,
      priority: 'medium',
      is_completed: kind > 0.85,
      starts_at: undated ? null : instant(start),
      ends_at: null,
    });
  });
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

function listIds(lists: CalendarClassification<EventRow>) {
  return {
    todayEvents: ids(lists.todayEvents),
    overdue: ids(lists.overdue),
    todayTasks: ids(lists.todayTasks),
    recentlyCompleted: ids(lists.recentlyCompleted),
    pastEvents: ids(lists.pastEvents),
  };
}

async function expectSameAsEveryRow(db: LinkboardDb, at: Date, timeZone: string) {
  const all = await db.calendar_events.toArray();
  const expected = classifyCalendar(all, at, timeZone);
  const read = await readCalendarLists(db, at, timeZone);
  expect(listIds(classifyCalendar(read.rows, at, timeZone))).toEqual(listIds(expected));
  expect(read.counts).toEqual({
    events: all.filter((row) => !row.is_task).length,
    pendingTasks: expected.pendingTasksCount,
    completedTasks: expected.completedCount,
    upcomingEvents: expected.upcomingEventsCount,
    pastEvents: expected.pastEventsTotal,
    eventsThisMonth: all.filter((row) => countsAsEventThisMonth(row, at, timeZone)).length,
  });
  return read;
}

describe('the calendar read through its local keys', () => {
  it('gives the today lists and every number the rules give over all rows, in any zone and at any time', async () => {
    const db = freshDb();
    await db.calendar_events.bulkPut(items(600));
    for (const zone of ['UTC', 'Pacific/Auckland', 'America/Los_Angeles']) {
      for (const shift of [0, 5 * HOUR, -11 * HOUR, 3 * DAY]) {
        await expectSameAsEveryRow(db, new Date(now.getTime() + shift), zone);
      }
    }
    db.close();
  });

  it('reads only the rows its lists hold, not the calendar', async () => {
    const db = freshDb();
    const rows = items(2_000, 7);
    await db.calendar_events.bulkPut(rows);
    const read = await expectSameAsEveryRow(db, now, 'UTC');
    const lists = classifyCalendar(read.rows, now, 'UTC');
    const shown = new Set(
      [lists.todayEvents, lists.overdue, lists.todayTasks, lists.recentlyCompleted, lists.pastEvents].flatMap(ids),
    );
    // Today's events (the list keeps 10 of them) and running events are the only rows read but not shown.
    expect(read.rows.length).toBeLessThan(shown.size + 30);
    expect(read.rows.length).toBeLessThan(rows.length / 4);
    db.close();
  });

  it('places on a month grid and a week exactly the items placed from all rows, long ones included', async () => {
    const db = freshDb();
    const rows = items(800, 3);
    // An item running for years shows on every grid it crosses.
    const forever = makeEvent({ starts_at: '2020-01-01T00:00:00.000Z', ends_at: '2030-01-01T00:00:00.000Z' });
    await db.calendar_events.bulkPut([...rows, forever]);
    const all = await db.calendar_events.toArray();
    for (const zone of ['UTC', 'Pacific/Auckland', 'America/Los_Angeles']) {
      const grids = [...['2026-01', '2026-03', '2026-04', '2026-05'].map(monthGrid), weekDays('2026-03-12')];
      for (const days of grids) {
        const [from, to] = [days[0]!, days[days.length - 1]!];
        const read = await readDayItems(db, from, to, zone);
        const placed = itemsByDay(read.rows, from, to, zone);
        const expected = itemsByDay(all, from, to, zone);
        expect([...placed].map(([day, list]) => [day, ids(list)])).toEqual(
          [...expected].map(([day, list]) => [day, ids(list)]),
        );
        expect(placed.get(days[3]!)?.some((item) => item.id === forever.id)).toBe(true);
        // A grid reads about its own weeks: not the other months' items.
        expect(read.rows.length).toBeLessThan(all.length / 2);
      }
    }
    db.close();
  });

  it("gives Upcoming's lists from tomorrow on", async () => {
    const db = freshDb();
    await db.calendar_events.bulkPut(items(500, 5));
    const all = await db.calendar_events.toArray();
    for (const zone of ['UTC', 'Pacific/Auckland']) {
      const expected = upcomingLists(all, now, zone);
      const read = upcomingLists((await readUpcoming(db, now, zone)).rows, now, zone);
      expect(ids(read.futureEvents)).toEqual(ids(expected.futureEvents));
      expect(ids(read.pendingTasks)).toEqual(ids(expected.pendingTasks));
    }
    db.close();
  });

  it("reads only Upcoming's window: the first items of each list, and whether there are more", async () => {
    const db = freshDb();
    await db.calendar_events.bulkPut(items(500, 5));
    const all = await db.calendar_events.toArray();
    const expected = upcomingLists(all, now, 'UTC');
    const read = await readUpcoming(db, now, 'UTC', 10);
    const lists = upcomingLists(read.rows, now, 'UTC');
    expect(read.rows.length).toBeLessThanOrEqual(20);
    expect(ids(lists.futureEvents)).toEqual(ids(expected.futureEvents.slice(0, 10)));
    expect(ids(lists.pendingTasks)).toEqual(ids(expected.pendingTasks.slice(0, 10)));
    expect(read.more).toBe(true);
    const whole = await readUpcoming(db, now, 'UTC', all.length);
    expect(whole.more).toBe(false);
    db.close();
  });

  it('keeps the keys and the kept counts right through edits, completions and deletions', async () => {
    const db = freshDb();
    const task = makeEvent({ is_task: true, priority: 'high', starts_at: '2026-03-15T08:00:00Z', ends_at: null });
    const event = makeEvent({ starts_at: '2026-03-10T09:00:00+00:00', ends_at: '2026-03-12T09:00:00+00:00' });
    await db.calendar_events.bulkPut([task, event]);
    const stored = async (id: string): Promise<Record<string, unknown>> => ({ ...(await db.calendar_events.get(id)) });
    expect(await stored(task.id)).toMatchObject({ _kind: 'p', _at: '2026-03-15T08:00:00.000Z' });
    expect((await stored(task.id))._done).toBeUndefined();
    expect(await stored(event.id)).toMatchObject({
      _kind: 'e',
      _evOver: '2026-03-12T09:00:00.000Z',
      _long: ['2026-03'],
    });
    await db.calendar_events.update(task.id, { is_completed: true, updated_at: '2026-03-15T09:00:00Z' });
    expect(await stored(task.id)).toMatchObject({ _kind: 'c', _done: '2026-03-15T09:00:00.000Z' });
    expect(await keptCount(db, 'calendar_events', '_kind', 'p')).toBe(0);
    expect(await keptCount(db, 'calendar_events', '_kind', 'c')).toBe(1);
    await db.calendar_events.put({ ...task, is_completed: false });
    expect((await stored(task.id))._done).toBeUndefined();
    expect(await keptCount(db, 'calendar_events', '_kind', 'p')).toBe(1);
    await db.calendar_events.delete(event.id);
    expect(await keptCount(db, 'calendar_events', '_kind', 'e')).toBe(0);
    await expectSameAsEveryRow(db, now, 'UTC');
    db.close();
  });

  it('sets the keys and counts on the rows a version 3 database already holds', async () => {
    const indexedDB = new IDBFactory();
    const old = new Dexie(dbName(ME), { indexedDB, IDBKeyRange });
    old.version(3).stores({
      ...dexieStores(),
      calendar_events: 'id, series_id, starts_at, owner_id',
      outbox: '++seq, &id, status',
      meta: 'key',
      counts: 'key',
    });
    await old.table('calendar_events').bulkPut(items(50, 11));
    old.close();
    const db = openUserDb(ME, { indexedDB, IDBKeyRange });
    const rows = await db.calendar_events.toArray();
    for (const row of rows) expect(row).toMatchObject(calendarKeys(row));
    expect(await keptCount(db, 'calendar_events', '_kind', 'e')).toBe(rows.filter((row) => !row.is_task).length);
    await expectSameAsEveryRow(db, now, 'Pacific/Auckland');
    db.close();
  });
});

describe('the months an item touches', () => {
  it('lists each UTC month from start to end, and marks one of many years as on every grid', () => {
    expect(monthsTouched(Date.parse('2026-11-30T00:00:00Z'), Date.parse('2027-02-01T00:00:00Z'))).toEqual([
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
    ]);
    expect(monthsTouched(Date.parse('2020-01-01T00:00:00Z'), Date.parse('2030-01-01T00:00:00Z'))).toEqual(['*']);
  });
});
