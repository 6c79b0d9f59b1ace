/**
 * Index keys of events and tasks (the calendar, Upcoming and the dashboard
 * read through indexes only the rows they show). What those screens select by cannot be indexed
 * as stored: `is_task` and `is_completed` are booleans, which IndexedDB does not take as keys,
 * and the server's and the device's instants are written differently ('…+00:00' with
 * microseconds, '…Z' with milliseconds), so their strings do not sort as their times do.
 *
 * So every stored row carries a few local keys derived from it, all starting with `_` and never a
 * column (synced-tables.ts `local`): a DBCore middleware (local-keys.ts) computes them on every put
 * of the table (a mutation, a pull, a push answer, a migration), so they can never disagree with the row.
 *
 * - `_kind`: 'e' an event, 'p' a pending task, 'c' a completed task (counted per value);
 * - `_at`: the start as a UTC ISO string with milliseconds, '' without one (`[_kind+_at]`);
 * - `_evOver`: an event's end (its start without one): past events are those over before now;
 * - `_evMade`: an event's creation: the Free plan's events of the month;
 * - `_done`: a completed task's last change: Recently Completed;
 * - `_long`: for an item over more than a day, the UTC months it touches ('YYYY-MM', or '*' for
 *   one longer than LONG_MONTHS_MAX months): a grid finds an item that began before it through
 *   this, and everything else through `_at` from a day before the grid's first day.
 *
 * Besides `_kind`, two counts are kept per UTC month (CALENDAR_MONTH_COUNTS, never stored on the
 * row): events by the month of their start and of their end (`_evOver`). The calendar's 'Upcoming
 * Events' and past events sum the months after or before now's and walk only now's month
 * (queries/calendar-counts.ts), not the index range of every event on one side of now.
 */
import { readCalendarRecord, type RawCalendarRecord } from '../domain/calendar-record.ts';
import { epochOf } from '../domain/event-times.ts';
import type { DerivedCount } from './index-counts.ts';

export type CalendarKind = 'e' | 'p' | 'c';

export interface CalendarKeys {
  _kind: CalendarKind;
  _at: string;
  _evOver?: string;
  _evMade?: string;
  _done?: string;
  _long?: string[];
}

/** The fields CalendarKeys sets (those a put must replace, the comparison with a server row must ignore). */
export const CALENDAR_KEY_FIELDS = ['_kind', '_at', '_evOver', '_evMade', '_done', '_long'] as const;

export const DAY_MS = 86_400_000;
/** An item touching more months than this is listed under '*': every grid reads it. */
export const LONG_MONTHS_MAX = 36;
export const EVERY_MONTH = '*';

/** What the calendar's rows hold that the keys are derived from. */
export type IndexedCalendarRow = RawCalendarRecord & { created_at: string; updated_at: string };

/** An instant as the keys hold it: UTC, milliseconds, the same length for years 0 to 9999. */
export function instantKey(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

const keyOf = (instant: string | null | undefined): string | null => {
  const time = epochOf(instant);
  return time === null ? null : instantKey(time);
};

/** The UTC months ('YYYY-MM') from `from` to `to` (epoch ms); [EVERY_MONTH] beyond LONG_MONTHS_MAX. */
export function monthsTouched(from: number, to: number): string[] {
  const start = new Date(from);
  const end = new Date(to);
  let year = start.getUTCFullYear();
  let month = start.getUTCMonth();
  const span = (end.getUTCFullYear() - year) * 12 + (end.getUTCMonth() - month);
  if (span > LONG_MONTHS_MAX) return [EVERY_MONTH];
  const months: string[] = [];
  for (let i = 0; i <= span; i += 1) {
    months.push(`${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}`);
    month += 1;
    if (month === 12) [year, month] = [year + 1, 0];
  }
  return months;
}

/** The index keys of a row (see the file's comment), read as the calendar reads it (docs/product.md, Records). */
export function calendarKeys(row: IndexedCalendarRow): CalendarKeys {
  const record = readCalendarRecord(row);
  const start = epochOf(record.start);
  const end = epochOf(record.end);
  const over = end ?? start;
  const kind: CalendarKind = !record.isTask ? 'e' : record.completed ? 'c' : 'p';
  const keys: CalendarKeys = { _kind: kind, _at: start === null ? '' : instantKey(start) };
  if (kind === 'e') {
    if (over !== null) keys._evOver = instantKey(over);
    const made = keyOf(row.created_at);
    if (made !== null) keys._evMade = made;
  }
  if (kind === 'c') keys._done = keyOf(row.updated_at) ?? '';
  if (start !== null && over !== null && over - start > DAY_MS) keys._long = monthsTouched(start, over);
  return keys;
}

/** The row with its keys, the stale ones of an earlier version dropped. */
export function withCalendarKeys<T extends IndexedCalendarRow>(row: T): T & CalendarKeys {
  const bare = { ...row } as Record<string, unknown>;
  for (const field of CALENDAR_KEY_FIELDS) delete bare[field];
  return Object.assign(bare, calendarKeys(row)) as T & CalendarKeys;
}

/**
 * The month ('YYYY-MM' for years 0 to 9999) an instant key falls in: a prefix of the key, so the
 * months sort as the keys do, and every key of a month sorts after the month and before
 * `${month}\uffff`.
 */
export function monthOfKey(key: string): string {
  return key.slice(0, 7);
}

/** Events by the UTC month of their start ('_evAtMonth') and of their end ('_evOverMonth'), kept in the counts store. */
export const CALENDAR_MONTH_COUNTS: readonly DerivedCount[] = [
  {
    name: '_evAtMonth',
    of: (row) => (row._kind === 'e' && typeof row._at === 'string' && row._at !== '' ? monthOfKey(row._at) : undefined),
  },
  { name: '_evOverMonth', of: (row) => (typeof row._evOver === 'string' ? monthOfKey(row._evOver) : undefined) },
];

/**
 * The counts store's key saying the month counts hold every stored row: set when the database is
 * created, or once they are counted from the rows of a database made before they were kept
 * (queries/calendar-counts.ts). Outside the table's count keys, so a clear leaves it.
 */
export const MONTH_COUNTS_KEPT = 'calendar_events~months';
