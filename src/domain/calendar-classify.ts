/**
 * Sorting events and tasks into the lists the calendar, dashboard and upcoming screens show
 * (docs/product.md, Dashboard; Calendar; Upcoming 'Dashboard' and 'Event classification', 9), and the small formatting
 * rules those lists need.
 *
 * 'Today' is the user's today: its date and midnight are taken in the user's time zone, never the
 * machine's, so a laptop on holiday in another zone still shows the user's day. Records are read
 * as docs/product.md, Records says (readCalendarRecord): aliases of start and end, completion in either field,
 * priorities outside low/medium/high as medium. A start or end that does not parse counts as
 * missing, so one bad record cannot break a screen.
 */
import { Temporal } from 'temporal-polyfill';
import { readCalendarRecord, readPriority, type Priority } from './calendar-record.ts';
import { epochOf, safeTimeZone, zonedAt, zonedAtEpoch } from './event-times.ts';

export interface CalendarItem {
  id: string;
  title: string;
  description: string | null;
  starts_at: string | null;
  ends_at: string | null;
  is_task: boolean;
  priority: string | null;
  is_completed: boolean;
  created_at: string;
  updated_at: string;
  series_id: string | null;
  /** Whole days from the local midnight of starts_at (absent on older rows: false). */
  all_day?: boolean;
}

export const TODAY_EVENTS_MAX = 10;
export const PAST_EVENTS_MAX = 15;
export const RECENTLY_COMPLETED_MAX = 15;
export const CLOCK_REFRESH_MS = 15_000;
/** A task due within this of its creation was made without a date: it shows 'Due: Today'. */
export const SAME_MOMENT_MS = 60_000;

export interface CalendarClassification<T extends CalendarItem> {
  /** Events starting today (user's zone) and not yet over, by start, at most TODAY_EVENTS_MAX. */
  todayEvents: T[];
  /** Pending tasks due before today's midnight, oldest first. */
  overdue: T[];
  /** Pending tasks due today or without a date: undated first (by created_at), then by due time. */
  todayTasks: T[];
  /** Completed tasks, most recently updated first, at most RECENTLY_COMPLETED_MAX. */
  recentlyCompleted: T[];
  /** Events over before now, most recent start first, at most PAST_EVENTS_MAX. */
  pastEvents: T[];
  pastEventsTotal: number;
  /** Events starting after now. */
  upcomingEventsCount: number;
  /** Incomplete tasks, whatever their date. */
  pendingTasksCount: number;
  completedCount: number;
}

export interface UpcomingLists<T extends CalendarItem> {
  futureEvents: T[];
  pendingTasks: T[];
}

/** An item read once: its kind, completion and times as epoch milliseconds (null when missing). */
interface Reading<T> {
  item: T;
  isTask: boolean;
  completed: boolean;
  start: number | null;
  /** When it is over: its end, or its start when it has no end. */
  over: number | null;
}

function read<T extends CalendarItem>(item: T): Reading<T> {
  const record = readCalendarRecord(item);
  const start = epochOf(record.start);
  return { item, isTask: record.isTask, completed: record.completed, start, over: epochOf(record.end) ?? start };
}

/** The epoch milliseconds of the user's midnight today and tomorrow. */
export interface Day {
  start: number;
  end: number;
}

export function dayAround(now: Date, timeZone: string): Day {
  const today = zonedAtEpoch(now.getTime(), timeZone).toPlainDate();
  const midnight = (date: Temporal.PlainDate) =>
    date.toZonedDateTime({ timeZone: safeTimeZone(timeZone) }).epochMilliseconds;
  return { start: midnight(today), end: midnight(today.add({ days: 1 })) };
}

const byStart = <T>(a: Reading<T>, b: Reading<T>): number => (a.start ?? 0) - (b.start ?? 0);
const byCreated = <T extends CalendarItem>(a: Reading<T>, b: Reading<T>): number =>
  (epochOf(a.item.created_at) ?? 0) - (epochOf(b.item.created_at) ?? 0);
const byUpdatedDesc = <T extends CalendarItem>(a: Reading<T>, b: Reading<T>): number =>
  (epochOf(b.item.updated_at) ?? 0) - (epochOf(a.item.updated_at) ?? 0);

/** Undated tasks first (oldest created first: the order they were jotted down), then by due time. */
function todayTaskOrder<T extends CalendarItem>(a: Reading<T>, b: Reading<T>): number {
  if ((a.start === null) !== (b.start === null)) return a.start === null ? -1 : 1;
  return byStart(a, b) || byCreated(a, b);
}

const items = <T>(readings: Reading<T>[]): T[] => readings.map((reading) => reading.item);

function isToday(time: number | null, day: Day): boolean {
  return time !== null && time >= day.start && time < day.end;
}

/** Every list and counter of the calendar screen and the dashboard's Today's Focus at `now`. */
export function classifyCalendar<T extends CalendarItem>(
  list: readonly T[],
  now: Date,
  timeZone: string,
): CalendarClassification<T> {
  const day = dayAround(now, timeZone);
  const at = now.getTime();
  const readings = list.map(read);
  const events = readings.filter((r) => !r.isTask);
  const pending = readings.filter((r) => r.isTask && !r.completed);
  const completed = readings.filter((r) => r.isTask && r.completed);
  const past = events.filter((r) => r.over !== null && r.over < at).sort((a, b) => byStart(b, a));
  return {
    todayEvents: items(
      events.filter((r) => isToday(r.start, day) && r.over !== null && r.over >= at).sort(byStart),
    ).slice(0, TODAY_EVENTS_MAX),
    overdue: items(pending.filter((r) => r.start !== null && r.start < day.start).sort(byStart)),
    todayTasks: items(pending.filter((r) => r.start === null || isToday(r.start, day)).sort(todayTaskOrder)),
    recentlyCompleted: items([...completed].sort(byUpdatedDesc)).slice(0, RECENTLY_COMPLETED_MAX),
    pastEvents: items(past).slice(0, PAST_EVENTS_MAX),
    pastEventsTotal: past.length,
    upcomingEventsCount: events.filter((r) => r.start !== null && r.start > at).length,
    pendingTasksCount: pending.length,
    completedCount: completed.length,
  };
}

/**
 * The Upcoming screen's lists (docs/product.md, Upcoming): events and pending tasks dated from the start of
 * tomorrow (user's zone) onward, by start. Undated tasks are today's business, so they are not here.
 */
export function upcomingLists<T extends CalendarItem>(
  list: readonly T[],
  now: Date,
  timeZone: string,
): UpcomingLists<T> {
  const tomorrow = dayAround(now, timeZone).end;
  const dated = list
    .map(read)
    .filter((r) => r.start !== null && r.start >= tomorrow)
    .sort(byStart);
  return {
    futureEvents: items(dated.filter((r) => !r.isTask)),
    pendingTasks: items(dated.filter((r) => r.isTask && !r.completed)),
  };
}

/** The priority a task shows: low, medium or high; anything else (or none) counts as medium. */
export function priorityOf(item: { priority?: string | null }): Priority {
  return readPriority(item.priority);
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** 24h 'HH:mm' of an instant in timeZone; '' when the instant does not parse (reminder texts). */
export function timeOfDay(instant: string, timeZone: string): string {
  const zoned = zonedAt(instant, timeZone);
  return zoned === null ? '' : `${pad(zoned.hour)}:${pad(zoned.minute)}`;
}

const HTTP_URL = /^https?:\/\/[^\s/?#]+\S*$/i;
const URL_MAX = 2048;

/**
 * The href to render when a title or description is a URL (docs/product.md, Calendar): the whole text, trimmed,
 * must be one http or https URL with a host (docs/product.md, Decisions: javascript:, data:, ftp: and the like
 * stay text, as does text that merely contains a URL). Null when it is not one.
 */
export function externalUrl(text: string | null | undefined): string | null {
  const candidate = text?.trim() ?? '';
  if (candidate.length > URL_MAX || !HTTP_URL.test(candidate)) return null;
  try {
    const url = new URL(candidate);
    const web = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    return web ? url.href : null;
  } catch {
    return null;
  }
}

const DAY_KEY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH_KEY = /^\d{4}-\d{2}$/;

function parseDay(value: string): Temporal.PlainDate | null {
  if (!DAY_KEY.test(value)) return null;
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' });
  } catch {
    return null;
  }
}

/**
 * Items placed on the days of a month grid or week: every day from `from` to `to` (inclusive,
 * 'YYYY-MM-DD') is a key, holding the items on it by start (empty when none). An event running
 * over several days is on each of them; undated tasks are on none. Empty when the range is not.
 * The days' midnights are worked out once (Temporal); an item is placed by comparing its epoch
 * times with them, so a grid over a thousand items costs no time-zone arithmetic per item.
 */
export function itemsByDay<T extends CalendarItem>(
  list: readonly T[],
  from: string,
  to: string,
  timeZone: string,
): Map<string, T[]> {
  const [first, last] = [parseDay(from), parseDay(to)];
  if (first === null || last === null) return new Map();
  const zone = safeTimeZone(timeZone);
  const days: string[] = [];
  // bounds[i]: the epoch milliseconds at which days[i] starts; the last one ends the range.
  const bounds: number[] = [];
  for (let day = first; Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) {
    days.push(day.toString());
    bounds.push(day.toZonedDateTime({ timeZone: zone }).epochMilliseconds);
  }
  bounds.push(last.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds);
  const placed: Reading<T>[][] = days.map(() => []);
  for (const reading of list.map(read)) {
    if (reading.start === null) continue;
    const lastMoment = reading.over !== null && reading.over > reading.start ? reading.over - 1 : reading.start;
    if (lastMoment < bounds[0]! || reading.start >= bounds[days.length]!) continue;
    const end = Math.min(days.length - 1, dayIndex(bounds, lastMoment));
    for (let index = Math.max(0, dayIndex(bounds, reading.start)); index <= end; index += 1) {
      placed[index]!.push(reading);
    }
  }
  return new Map(days.map((day, index) => [day, items(placed[index]!.sort(byStart))]));
}

/**
 * The epoch milliseconds from the first moment of `from` to the first moment after `to` ('YYYY-MM-DD',
 * in `timeZone`): the instants a grid over those days shows. Null when either is not a day.
 */
export function daysSpan(from: string, to: string, timeZone: string): Day | null {
  const [first, last] = [parseDay(from), parseDay(to)];
  if (first === null || last === null) return null;
  const zone = safeTimeZone(timeZone);
  return {
    start: first.toZonedDateTime({ timeZone: zone }).epochMilliseconds,
    end: last.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).epochMilliseconds,
  };
}

/** The index of the day holding `time`: the last bound at or before it (-1 before the first). */
function dayIndex(bounds: readonly number[], time: number): number {
  let low = 0;
  let high = bounds.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (bounds[middle]! <= time) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

const DAYS_IN_WEEK = 7;
const GRID_DAYS = 6 * DAYS_IN_WEEK;

/** The Monday on or before a date (ISO weeks start on Monday). */
function mondayOf(date: Temporal.PlainDate): Temporal.PlainDate {
  return date.subtract({ days: date.dayOfWeek - 1 });
}

function daysFrom(first: Temporal.PlainDate, count: number): string[] {
  return Array.from({ length: count }, (_, index) => first.add({ days: index }).toString());
}

/**
 * The 6×7 Monday-first grid showing month `month` ('YYYY-MM'): from the Monday on or before the
 * 1st, 42 days, so every month fits and the grid never changes height. Empty when `month` is not one.
 */
export function monthGrid(month: string): string[] {
  const first = MONTH_KEY.test(month) ? parseDay(`${month}-01`) : null;
  return first === null ? [] : daysFrom(mondayOf(first), GRID_DAYS);
}

/** The 7 days, Monday to Sunday, of the ISO week containing `day` ('YYYY-MM-DD'); empty when it is not one. */
export function weekDays(day: string): string[] {
  const date = parseDay(day);
  return date === null ? [] : daysFrom(mondayOf(date), DAYS_IN_WEEK);
}
