/**
 * Expanding a recurring series into concrete occurrences (docs/product.md, Calendar 'Recurring series', docs/product.md, Validation,
 * docs/sync-protocol.md: series are expanded on the client and pushed as rows, at most 1,000).
 *
 * - One occurrence per step from the start until the repeat-until date inclusive: an occurrence
 *   belongs to the series when its local start date (in the user's zone) is on or before it.
 * - Steps: daily 1 day, weekly 7 days, monthly 1 calendar month.
 * - Each occurrence keeps the start's wall-clock time in the user's zone: a 09:00 weekly meeting
 *   stays at 09:00 across a daylight-saving change, so its UTC instant moves by the shift. A time
 *   that does not exist on some day (skipped by a spring-forward change) moves forward by the gap,
 *   and a time that happens twice means the first one ('compatible', as calendars do).
 * - Each occurrence keeps the original duration exactly (end = start + the same milliseconds), so
 *   a 3-hour event stays 3 hours long on the night the clocks change; no end stays no end.
 *
 * Monthly on the 29th, 30th or 31st: one calendar month clamps to the month's last day, so a
 * series started on 31 Jan runs 31 Jan, 28 Feb (29 in a leap year), 31 Mar, 30 Apr, 31 May...
 * Each occurrence is start + n months, never the previous occurrence + 1 month, so a short month
 * does not drag the rest of the series to the 28th. Google Calendar skips months without the day
 * instead; Outlook clamps, and so does 'one calendar month' in docs/product.md. We clamp, so a user never
 * silently loses a month's meeting.
 *
 * rrule produces the pattern of local dates: it works in 'floating' dates (UTC fields holding the
 * local wall-clock fields), and Temporal turns each local date and the start's wall-clock time
 * into an instant in the user's zone.
 */
import * as rruleModule from 'rrule';
import type { Frequency as FrequencyEnum, Options } from 'rrule';
import { Temporal } from 'temporal-polyfill';
import { instantOfWallClock, safeTimeZone, zonedAt } from './event-times.ts';
import { messages } from './sync-codes.ts';
import { isOneOf, parseInstant, recurrenceRules, SERIES_MAX, type RecurrenceRule } from './validation.ts';

export interface SeriesRequest {
  rule: RecurrenceRule;
  start: string;
  end: string | null;
  /** 'YYYY-MM-DD', inclusive, in timeZone. */
  until: string;
  timeZone: string;
  /**
   * Whole-day occurrences: each starts at its day's local midnight and ends at the midnight as
   * many days later as the first one, so a day-long event stays one day on the night the clocks
   * change (23 or 25 hours then), where a timed one keeps its exact length.
   */
  allDay?: boolean;
}

/** ISO instants in `toISOString` form. */
export interface OccurrenceTimes {
  starts_at: string;
  ends_at: string | null;
}

export type Expansion = { ok: true; occurrences: OccurrenceTimes[] } | { ok: false; error: string };

export const SERIES_TOO_LONG = 'A series can have at most 1,000 occurrences. Choose an earlier repeat-until date.';
export const UNTIL_BEFORE_START = 'The repeat-until date cannot be before the start.';

/**
 * rrule ships an ES module (what Vite bundles) and a UMD build (what Node's ESM loader gets, as
 * CommonJS with its exports on `default` only): the calendar feed runs this file in Node.
 */
const rrule: typeof rruleModule =
  'RRule' in rruleModule ? rruleModule : (Reflect.get(rruleModule, 'default') as typeof rruleModule);
const { Frequency, RRule } = rrule;

const FREQUENCIES: Record<RecurrenceRule, FrequencyEnum> = {
  daily: Frequency.DAILY,
  weekly: Frequency.WEEKLY,
  monthly: Frequency.MONTHLY,
};

/** The shortest month has 28 days: from the 29th on, a month may lack the start's day. */
const SHORTEST_MONTH = 28;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(value: string): Temporal.PlainDate | null {
  if (!DATE_ONLY.test(value)) return null;
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' });
  } catch {
    return null;
  }
}

/** A local date as rrule's floating date: midnight UTC carrying the local date's fields. */
function floating(date: Temporal.PlainDate): Date {
  return new Date(Date.UTC(date.year, date.month - 1, date.day));
}

/** The local date a floating date stands for. */
function plainDateOf(floatingDate: Date): Temporal.PlainDate {
  return new Temporal.PlainDate(
    floatingDate.getUTCFullYear(),
    floatingDate.getUTCMonth() + 1,
    floatingDate.getUTCDate(),
  );
}

/**
 * The rrule options for the pattern of local dates. Monthly from the 29th on takes the last of
 * the days 28..start day present in each month (BYMONTHDAY + BYSETPOS=-1): the start's day where
 * the month has it, else the month's last day (see the module comment).
 */
function ruleOptions(rule: RecurrenceRule, firstDay: Temporal.PlainDate): Partial<Options> {
  const options: Partial<Options> = { freq: FREQUENCIES[rule], dtstart: floating(firstDay) };
  if (rule !== 'monthly' || firstDay.day <= SHORTEST_MONTH) return options;
  const days: number[] = [];
  for (let day = SHORTEST_MONTH; day <= firstDay.day; day += 1) days.push(day);
  return { ...options, bymonthday: days, bysetpos: -1 };
}

const DAY_MS = 86_400_000;

/**
 * The local dates of the series (as floating dates), first to last, never more than
 * SERIES_MAX + 1: one past the limit is enough to refuse, and a far-away until date must not
 * make us generate thousands. Daily and weekly are every 1 or 7 days (counted in UTC days, so no
 * time zone is involved); monthly, with its short months, is rrule's.
 */
function localDates(rule: RecurrenceRule, firstDay: Temporal.PlainDate, lastDay: Temporal.PlainDate): Date[] {
  const [first, last] = [floating(firstDay), floating(lastDay)];
  if (rule !== 'monthly') {
    const step = (rule === 'weekly' ? 7 : 1) * DAY_MS;
    const dates: Date[] = [];
    for (let at = first.getTime(); at <= last.getTime() && dates.length <= SERIES_MAX; at += step) {
      dates.push(new Date(at));
    }
    return dates;
  }
  return new RRule({ ...ruleOptions(rule, firstDay), until: last, count: SERIES_MAX + 1 }).all();
}

/** An instant's time-zone offset in milliseconds: the zone's transitions near a run of dates. */
interface Offsets {
  /** Instants at which the offset changes, ascending. */
  at: number[];
  /** offsets[i]: the offset before at[i] (offsets[at.length]: after the last). */
  offsets: number[];
}

/** The zone's offsets from `from` until `to` (epoch ms), read from Temporal once per transition. */
function offsetsBetween(zone: string, from: number, to: number): Offsets {
  let zoned = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(zone);
  const offsets: Offsets = { at: [], offsets: [zoned.offsetNanoseconds / 1e6] };
  for (;;) {
    const next = zoned.getTimeZoneTransition('next');
    if (next === null || next.epochMilliseconds > to) return offsets;
    offsets.at.push(next.epochMilliseconds);
    offsets.offsets.push(next.offsetNanoseconds / 1e6);
    zoned = next;
  }
}

/** The segment of `offsets` holding `instant`: the number of transitions at or before it. */
function segmentOf(offsets: Offsets, instant: number): number {
  let low = 0;
  let high = offsets.at.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (offsets.at[middle]! <= instant) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The instants of one wall-clock time on each of `dates` (floating) in `zone`, as
 * instantOfWallClock says them. A wall-clock time is ambiguous or skipped only within hours of a
 * transition, so away from one the instant is the wall-clock time minus the offset there; within
 * a day of one, Temporal decides (a spring-forward gap, an autumn overlap).
 */
function wallClockInstants(dates: readonly Date[], time: Temporal.PlainTime, zone: string): string[] {
  if (dates.length === 0) return [];
  const timeMs = ((time.hour * 60 + time.minute) * 60 + time.second) * 1000 + time.millisecond;
  const margin = 2 * DAY_MS;
  const offsets = offsetsBetween(zone, dates[0]!.getTime() - margin, dates[dates.length - 1]!.getTime() + margin);
  return dates.map((date) => {
    const wall = date.getTime() + timeMs;
    const segment = segmentOf(offsets, wall - offsets.offsets[segmentOf(offsets, wall)]!);
    const instant = wall - offsets.offsets[segment]!;
    const near = [offsets.at[segment - 1], offsets.at[segment]].some(
      (transition) => transition !== undefined && Math.abs(transition - instant) < DAY_MS,
    );
    if (!near) return new Date(instant).toISOString();
    return instantOfWallClock(plainDateOf(date).toPlainDateTime(time), zone);
  });
}

type Checked = { ok: true; start: Temporal.ZonedDateTime; duration: number | null; lastDay: Temporal.PlainDate };

/** The request's fields read and checked, in the order a user would fix them. */
function checkRequest(request: SeriesRequest): Checked | { ok: false; error: string } {
  if (!isOneOf(recurrenceRules, request.rule)) return { ok: false, error: messages.seriesRule };
  if (request.until.trim() === '') return { ok: false, error: messages.seriesUntil };
  const start = zonedAt(request.start, safeTimeZone(request.timeZone));
  const lastDay = parseDate(request.until.trim());
  const end = parseInstant(request.end);
  if (start === null || lastDay === null || end === 'invalid') return { ok: false, error: messages.invalidDate };
  if (end !== null && end < start.epochMilliseconds) return { ok: false, error: messages.eventRange };
  if (Temporal.PlainDate.compare(lastDay, start.toPlainDate()) < 0) return { ok: false, error: UNTIL_BEFORE_START };
  return { ok: true, start, lastDay, duration: end === null ? null : end - start.epochMilliseconds };
}

/** The occurrences of a series, or the message that says why there are none. */
export function expandSeries(request: SeriesRequest): Expansion {
  const checked = checkRequest(request);
  if (!checked.ok) return checked;
  const { start, lastDay, duration } = checked;
  const dates = localDates(request.rule, start.toPlainDate(), lastDay);
  if (dates.length > SERIES_MAX) return { ok: false, error: SERIES_TOO_LONG };
  if (request.allDay) return { ok: true, occurrences: allDayOccurrences(dates, start, request.end) };
  const occurrences = wallClockInstants(dates, start.toPlainTime(), start.timeZoneId).map(
    (startsAt): OccurrenceTimes => ({
      starts_at: startsAt,
      ends_at: duration === null ? null : new Date(Date.parse(startsAt) + duration).toISOString(),
    }),
  );
  return { ok: true, occurrences };
}

/** Whole days: each date's start of day, ending the first occurrence's number of days later. */
function allDayOccurrences(
  dates: readonly Date[],
  start: Temporal.ZonedDateTime,
  end: string | null,
): OccurrenceTimes[] {
  const zone = start.timeZoneId;
  const endDay = end === null ? null : zonedAt(end, zone)?.toPlainDate();
  const days = endDay ? Math.max(1, start.toPlainDate().until(endDay, { largestUnit: 'days' }).days) : 1;
  const midnight = (day: Temporal.PlainDate) => new Date(day.toZonedDateTime(zone).epochMilliseconds).toISOString();
  return dates.map((date) => {
    const day = plainDateOf(date);
    return { starts_at: midnight(day), ends_at: midnight(day.add({ days })) };
  });
}
