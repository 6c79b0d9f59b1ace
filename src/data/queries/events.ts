/**
 * Events and tasks as the calendar, Upcoming and the dashboard show them:
 * each screen reads through the calendar's local keys (calendar-index.ts) only the rows its
 * lists hold, and takes its numbers from kept counts or index counts, never from every row. A
 * write wakes only the reads whose ranges it touched (a task ticked today does not re-read the
 * grid of another month). Changes made on this device show before IndexedDB commits them
 * (pending-writes.ts): the lists lay them over the rows read, and the numbers move with the rows
 * they had read; a row they had not read counts once committed, a few milliseconds later.
 */
import { Dexie } from 'dexie';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import {
  classifyCalendar,
  dayAround,
  daysSpan,
  itemsByDay,
  PAST_EVENTS_MAX,
  RECENTLY_COMPLETED_MAX,
  upcomingLists,
  type CalendarClassification,
  type UpcomingLists,
} from '../../domain/calendar-classify.ts';
import { monthStart } from '../../domain/limits.ts';
import { calendarKeys, DAY_MS, EVERY_MONTH, instantKey, monthsTouched, type CalendarKind } from '../calendar-index.ts';
import { keptCount } from '../counts.ts';
import type { LinkboardDb } from '../db.ts';
import { resolveWrites, type PendingWrite } from '../pending-writes.ts';
import type { EventRow } from '../rows.ts';
import { readEventCounters, type EventCounters } from './calendar-counts.ts';
import { readSince, useWithPending, type SinceRead } from './live-rows.ts';

const KINDS: readonly CalendarKind[] = ['e', 'p', 'c'];

/** Rows of one kind whose start key lies in [lower, upper), through [_kind+_at]. */
const startingIn = (db: LinkboardDb, kind: CalendarKind, lower: string, upper: string | typeof Dexie.maxKey) =>
  db.calendar_events.where('[_kind+_at]').between([kind, lower], [kind, upper], true, false);

/** Every row of each list, once. */
function unite(...lists: readonly EventRow[][]): EventRow[] {
  const byId = new Map<string, EventRow>();
  for (const list of lists) for (const row of list) byId.set(row.id, row);
  return [...byId.values()];
}

type Pending = (table: 'calendar_events') => readonly PendingWrite[];

/** `rows` with the pending writes laid over them, and for each written row that was read, the row before. */
function withWrites(
  rows: readonly EventRow[],
  pending: Pending,
): { rows: EventRow[]; replaced: Map<string, EventRow> } {
  const writes = pending('calendar_events');
  if (writes.length === 0) return { rows: rows as EventRow[], replaced: new Map() };
  const read = new Map(rows.map((row) => [row.id, row]));
  const byId = new Map(read);
  const replaced = new Map<string, EventRow>();
  for (const write of resolveWrites(writes, (key) => byId.get(key))) {
    const before = read.get(write.key);
    if (before && !replaced.has(write.key)) replaced.set(write.key, before);
    if (write.row) byId.set(write.key, write.row as EventRow);
    else byId.delete(write.key);
  }
  return { rows: [...byId.values()], replaced };
}

/** The calendar's and the dashboard's numbers. */
export interface CalendarCounts {
  /** Events (not tasks), whatever their date. */
  events: number;
  pendingTasks: number;
  completedTasks: number;
  /** Events starting after now. */
  upcomingEvents: number;
  /** Events over before now. */
  pastEvents: number;
  /** Events created this month in the user's zone (the Free plan's quota, docs/product.md, Plans and limits). */
  eventsThisMonth: number;
}

/** What one row adds to each number at `at` (epoch ms), the month starting at `month` (an instant key). */
function countsOfRow(row: EventRow, at: string, month: string): CalendarCounts {
  const keys = calendarKeys(row);
  const event = keys._kind === 'e' ? 1 : 0;
  return {
    events: event,
    pendingTasks: keys._kind === 'p' ? 1 : 0,
    completedTasks: keys._kind === 'c' ? 1 : 0,
    upcomingEvents: event && keys._at > at ? 1 : 0,
    pastEvents: keys._evOver !== undefined && keys._evOver < at ? 1 : 0,
    eventsThisMonth: keys._evMade !== undefined && keys._evMade >= month ? 1 : 0,
  };
}

function shift(counts: CalendarCounts, row: EventRow | undefined, by: 1 | -1, at: string, month: string): void {
  if (!row) return;
  const of = countsOfRow(row, at, month);
  for (const name of Object.keys(counts) as (keyof CalendarCounts)[]) counts[name] += by * of[name];
}

export interface CalendarLists {
  lists: CalendarClassification<EventRow>;
  counts: CalendarCounts;
  /** Whether more overdue tasks follow the first `overdueLimit` shown. */
  overdueMore: boolean;
}

interface ListsRead extends SinceRead {
  rows: EventRow[];
  counts: CalendarCounts;
  overdueMore: boolean;
  at: string;
  month: string;
}

/** Overdue tasks the calendar shows at first, and adds with each 'Show more' (a window: docs/scale.md). */
export const OVERDUE_PAGE = 50;

/**
 * One read of the today lists (docs/product.md, Calendar): today's events, the first `overdueLimit`
 * overdue tasks (oldest first) and today's tasks, the 15 most recently completed and the 15 latest
 * past events, with the numbers, at `now`.
 */
export function readCalendarLists(
  db: LinkboardDb,
  now: Date,
  timeZone: string,
  overdueLimit = Number.POSITIVE_INFINITY,
): Promise<ListsRead> {
  const today = dayAround(now, timeZone);
  const [at, start, end] = [now.getTime(), today.start, today.end].map(instantKey) as [string, string, string];
  const day = { start, end };
  const month = instantKey(monthStart(now, timeZone).getTime());
  // One read-only transaction for the requests: one to schedule, not one each.
  return readSince(db, () =>
    db.transaction('r', db.calendar_events, db.counts, () => readLists(db, at, day, month, overdueLimit)),
  );
}

async function readLists(
  db: LinkboardDb,
  at: string,
  day: { start: string; end: string },
  month: string,
  overdueLimit: number,
): Promise<Omit<ListsRead, 'since'>> {
  const { start: dayStart, end: dayEnd } = day;
  const table = db.calendar_events;
  const overdueRange = table.where('[_kind+_at]').between(['p', ''], ['p', dayStart], false, false);
  const [today, overdue, undated, dueToday, completed, past, events, pendingTasks, completedTasks, counters, made] =
    await Promise.all([
      startingIn(db, 'e', dayStart, dayEnd).toArray(),
      (Number.isFinite(overdueLimit) ? overdueRange.limit(overdueLimit + 1) : overdueRange).toArray(),
      table.where('[_kind+_at]').equals(['p', '']).toArray(),
      startingIn(db, 'p', dayStart, dayEnd).toArray(),
      table.orderBy('_done').reverse().limit(RECENTLY_COMPLETED_MAX).toArray(),
      // Past events by start, latest first, skipping those still running.
      table
        .where('[_kind+_at]')
        .between(['e', ''], ['e', at], true, false)
        .reverse()
        .filter((row) => (calendarKeys(row)._evOver ?? at) < at)
        .limit(PAST_EVENTS_MAX)
        .toArray(),
      ...KINDS.map((kind) => keptCount(db, 'calendar_events', '_kind', kind)),
      readEventCounters(db, at),
      table.where('_evMade').aboveOrEqual(month).count(),
    ]);
  const { upcomingEvents, pastEvents } = counters as EventCounters;
  return {
    rows: unite(today, overdue.slice(0, overdueLimit), undated, dueToday, completed, past),
    counts: {
      events: events as number,
      pendingTasks: pendingTasks as number,
      completedTasks: completedTasks as number,
      upcomingEvents,
      pastEvents,
      eventsThisMonth: made as number,
    },
    overdueMore: overdue.length > overdueLimit,
    at,
    month,
  };
}

/**
 * The today lists and the numbers, the overdue tasks their first `overdueLimit`; undefined while
 * the first read runs.
 */
export function useCalendarLists(
  db: LinkboardDb,
  now: Date,
  timeZone: string,
  overdueLimit = Number.POSITIVE_INFINITY,
): CalendarLists | undefined {
  const live = useLiveQuery(
    () => readCalendarLists(db, now, timeZone, overdueLimit),
    [db, now, timeZone, overdueLimit],
  );
  const apply = useCallback(
    (read: ListsRead, pending: Pending): CalendarLists => {
      const { rows, replaced } = withWrites(read.rows, pending);
      const counts = { ...read.counts };
      if (replaced.size > 0) {
        const now = new Map(rows.map((row) => [row.id, row]));
        for (const [id, before] of replaced) {
          shift(counts, before, -1, read.at, read.month);
          shift(counts, now.get(id), 1, read.at, read.month);
        }
      }
      const lists = classifyCalendar(rows, now, timeZone);
      // A task laid over the window shows only where it falls inside it.
      const overdue = lists.overdue.slice(0, overdueLimit);
      const overdueMore = read.overdueMore || overdue.length < lists.overdue.length;
      return { lists: { ...lists, overdue }, counts, overdueMore };
    },
    [now, timeZone, overdueLimit],
  );
  return useWithPending(db, live, apply);
}

/**
 * How many events (not tasks) the user created at or after `since` (the start of their month):
 * the Free quota as the server counts it, through the `_evMade` index. Undefined while loading.
 */
export function useEventsMadeSince(db: LinkboardDb, since: Date): number | undefined {
  const from = instantKey(since.getTime());
  return useLiveQuery(() => db.calendar_events.where('_evMade').aboveOrEqual(from).count(), [db, from]);
}

interface RowsRead extends SinceRead {
  rows: EventRow[];
}

/**
 * The items on the days `from` to `to` (a month grid's 42, a week's 7), each day's by start: the
 * items starting from a day before the first (an item of a day or less that began then still
 * shows), and the longer ones touching those months (calendar-index.ts `_long`).
 */
export function readDayItems(db: LinkboardDb, from: string, to: string, timeZone: string): Promise<RowsRead> {
  return readSince(db, async () => {
    const span = daysSpan(from, to, timeZone);
    if (span === null) return { rows: [] };
    const [lower, upper] = [instantKey(span.start - DAY_MS), instantKey(span.end)];
    const months = monthsTouched(span.start - DAY_MS, span.end);
    const lists = await Promise.all([
      ...KINDS.map((kind) => startingIn(db, kind, lower, upper).toArray()),
      db.calendar_events
        .where('_long')
        .anyOf([...months, EVERY_MONTH])
        .toArray(),
    ]);
    return { rows: unite(...lists) };
  });
}

/** The items of each day from `from` to `to` ('YYYY-MM-DD'); undefined while the first read runs. */
export function useDayItems(
  db: LinkboardDb,
  from: string,
  to: string,
  timeZone: string,
): Map<string, EventRow[]> | undefined {
  const live = useLiveQuery(() => readDayItems(db, from, to, timeZone), [db, from, to, timeZone]);
  const apply = useCallback(
    (read: RowsRead, pending: Pending) => itemsByDay(withWrites(read.rows, pending).rows, from, to, timeZone),
    [from, to, timeZone],
  );
  return useWithPending(db, live, apply);
}

/** Items of each of Upcoming's lists shown at first, and added by each 'Show more' (docs/product.md, Upcoming). */
export const UPCOMING_PAGE = 50;

/**
 * Upcoming's rows (docs/product.md, Upcoming): the first `limit` events and pending tasks starting
 * from tomorrow in the user's zone, read in order through [_kind+_at] (a window, not every future
 * item: docs/scale.md), and whether either list goes on.
 */
export function readUpcoming(
  db: LinkboardDb,
  now: Date,
  timeZone: string,
  limit = Number.POSITIVE_INFINITY,
): Promise<RowsRead & { more: boolean }> {
  const tomorrow = instantKey(dayAround(now, timeZone).end);
  return readSince(db, async () => {
    const lists = await Promise.all(
      (['e', 'p'] as const).map((kind) => {
        const range = startingIn(db, kind, tomorrow, Dexie.maxKey);
        return (Number.isFinite(limit) ? range.limit(limit + 1) : range).toArray();
      }),
    );
    return {
      rows: unite(...lists.map((list) => list.slice(0, limit))),
      more: lists.some((list) => list.length > limit),
    };
  });
}

/** Upcoming's lists, each its first `limit` items, and whether there are more; undefined while the first read runs. */
export function useUpcoming(
  db: LinkboardDb,
  now: Date,
  timeZone: string,
  limit = UPCOMING_PAGE,
): (UpcomingLists<EventRow> & { more: boolean }) | undefined {
  const live = useLiveQuery(() => readUpcoming(db, now, timeZone, limit), [db, now, timeZone, limit]);
  const apply = useCallback(
    (read: RowsRead & { more: boolean }, pending: Pending) => {
      const lists = upcomingLists(withWrites(read.rows, pending).rows, now, timeZone);
      // A new item laid over the window shows only where it falls inside it.
      const futureEvents = lists.futureEvents.slice(0, limit);
      const pendingTasks = lists.pendingTasks.slice(0, limit);
      const cut = futureEvents.length < lists.futureEvents.length || pendingTasks.length < lists.pendingTasks.length;
      return { futureEvents, pendingTasks, more: read.more || cut };
    },
    [now, timeZone, limit],
  );
  return useWithPending(db, live, apply);
}
