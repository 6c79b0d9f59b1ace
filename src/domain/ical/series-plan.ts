/**
 * Whether a stored series can be written as one VEVENT with an RRULE, and with which EXDATEs.
 *
 * A series is stored expanded (one row per occurrence sharing series_id, src/domain/recurrence.ts);
 * deleting one occurrence removes its row and editing it 'this event only' detaches it (series_id
 * null), so a series' rows are the rule's occurrences minus some. We re-expand the rule from the
 * earliest stored row with `expandSeries` (the very function that made the rows) and compare by
 * start instant: every row must be one expected occurrence with the expected end, and every
 * expected occurrence without a row becomes an EXDATE. Anything else (a moved occurrence, a row
 * the rule does not produce, rows that disagree on rule, until date or text) is written as one
 * VEVENT per occurrence, which is always exact.
 *
 * Monthly from the 29th-31st: the app clamps to the month's last day where RFC 5545 skips a month
 * without the day (3.3.10: invalid dates are ignored). From the 31st, 'clamped' means 'the last day
 * of every month', which BYMONTHDAY=-1 says exactly. From the 29th or 30th the app keeps that day
 * where the month has it (30 Apr, 30 May, 28 Feb), which BYMONTHDAY=-1 does not say; so does a
 * start on 30 Apr or 29 Feb, although it is its month's last day. RFC 5545 could say it with
 * BYMONTHDAY=28,29,30;BYSETPOS=-1, but BYSETPOS without BYDAY is poorly supported by calendar
 * clients (and ical-generator refuses it), so those series are written per occurrence instead.
 *
 * When the first occurrence itself was deleted or detached we cannot know the original start; a
 * daily or weekly series re-expanded from its earliest row gives the same later dates, a monthly one
 * mostly does too, and when it does not, the comparison falls back.
 */
import { Temporal } from 'temporal-polyfill';
import { epochOf, localDate } from '../event-times.ts';
import { expandSeries } from '../recurrence.ts';
import type { RecurrenceRule } from '../validation.ts';
import type { CalendarRow } from './calendar-row.ts';

export type SeriesPlan =
  | {
      kind: 'rule';
      /** The earliest stored occurrence: DTSTART, DTEND, text and UID come from it. */
      first: CalendarRow;
      rule: RecurrenceRule;
      /** BYMONTHDAY values; [-1] for a monthly series from the 31st, else none. */
      byMonthDay: number[] | null;
      /** The last instant of the until day in the zone: RRULE UNTIL, in UTC (RFC 5545 3.3.10). */
      until: Date;
      /** The until day itself ('YYYY-MM-DD'): UNTIL of an all-day series, a DATE like its DTSTART. */
      untilDay: string;
      /** Starts (epoch ms) of the occurrences the rule produces that have no row. */
      exdates: number[];
    }
  | { kind: 'occurrences'; rows: CalendarRow[]; reason: string };

export const REASONS = {
  noStart: 'an occurrence has no valid start',
  mixed: 'the occurrences differ in rule, until date, title, description, all-day or reminder',
  noUntil: 'the series has no valid until date',
  monthEnd: 'a monthly series from the 29th or 30th clamps in a way RRULE cannot say',
  expansion: 'the rule does not expand',
  mismatch: 'an occurrence is not where the rule puts it',
} as const;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The repeat-until day ('YYYY-MM-DD' in the zone) of a stored recurrence_end_date. The app stores
 * it as an instant, 23:59 of that day in the user's zone ('2026-12-31T22:59:00+00:00' for
 * 31 Dec in Berlin, as the server returns it; '...22:59:00.000Z' as the client writes it); a
 * plain date (older exports) is the day itself. '' when it is neither.
 */
export function untilDay(stored: string | null | undefined, timeZone: string): string {
  const value = stored?.trim() ?? '';
  if (DATE_ONLY.test(value)) return value;
  return value === '' ? '' : localDate(value, timeZone);
}

const sameSeries = (a: CalendarRow, b: CalendarRow, timeZone: string): boolean =>
  a.recurrence_rule === b.recurrence_rule &&
  untilDay(a.recurrence_end_date, timeZone) === untilDay(b.recurrence_end_date, timeZone) &&
  a.title === b.title &&
  (a.description ?? '') === (b.description ?? '') &&
  Boolean(a.all_day) === Boolean(b.all_day) &&
  (a.reminder_minutes ?? null) === (b.reminder_minutes ?? null);

/** The last second of the local date in the zone, as an instant. */
function endOfDay(date: string, timeZone: string): Date | null {
  try {
    const day = Temporal.PlainDate.from(date, { overflow: 'reject' });
    return new Date(day.add({ days: 1 }).toZonedDateTime(timeZone).epochMilliseconds - 1000);
  } catch {
    return null;
  }
}

/** How to write the rows of one series (all sharing series_id) in the zone. */
export function planSeries(rows: readonly CalendarRow[], timeZone: string): SeriesPlan {
  const fallback = (reason: string): SeriesPlan => ({ kind: 'occurrences', rows: [...rows], reason });
  const timed = rows.map((row) => ({ row, start: epochOf(row.starts_at), end: epochOf(row.ends_at) }));
  if (timed.some((item) => item.start === null)) return fallback(REASONS.noStart);
  timed.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  const first = timed[0]?.row;
  const firstStart = timed[0]?.start;
  if (first === undefined || firstStart == null || first.recurrence_rule === 'none') return fallback(REASONS.mixed);
  if (!rows.every((row) => sameSeries(row, first, timeZone))) return fallback(REASONS.mixed);
  const rule = first.recurrence_rule;
  const startsAt = first.starts_at ?? '';
  const untilDate = untilDay(first.recurrence_end_date, timeZone);
  const until = endOfDay(untilDate, timeZone);
  if (until === null) return fallback(REASONS.noUntil);

  const startDay = Temporal.Instant.fromEpochMilliseconds(firstStart).toZonedDateTimeISO(timeZone).day;
  if (rule === 'monthly' && (startDay === 29 || startDay === 30)) return fallback(REASONS.monthEnd);
  const byMonthDay = rule === 'monthly' && startDay === 31 ? [-1] : null;

  const allDay = Boolean(first.all_day);
  const expansion = expandSeries({ rule, start: startsAt, end: first.ends_at, until: untilDate, timeZone, allDay });
  if (!expansion.ok) return fallback(REASONS.expansion);
  const expected = new Map<number, number | null>();
  for (const occurrence of expansion.occurrences) {
    expected.set(Date.parse(occurrence.starts_at), epochOf(occurrence.ends_at));
  }
  for (const { start, end } of timed) {
    if (start === null || !expected.has(start) || expected.get(start) !== end) return fallback(REASONS.mismatch);
    expected.delete(start);
  }
  const exdates = [...expected.keys()].sort((a, b) => a - b);
  return { kind: 'rule', first, rule, byMonthDay, until, untilDay: untilDate, exdates };
}
