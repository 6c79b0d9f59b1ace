/**
 * Instants and the wall-clock values the user sees and types (docs/product.md, Validation 'Event dialog', docs/product.md, Plans and limits
 * 'Time zone'). Every rule here works in the user's time zone, never the machine's: a phone set
 * to another zone, or a test run in UTC, must show and read the same wall-clock times.
 *
 * Instants are ISO strings as stored ('2026-11-23T09:00:00.000Z', or with an offset); what we
 * write back is always `Date#toISOString` form, so stored values compare as strings too.
 */
import { Temporal } from 'temporal-polyfill';
import { isValidTimeZone, parseInstant } from './validation.ts';

/** The zone when the profile has none or an unknown one (docs/product.md, Plans and limits), as the server counts quotas. */
export const FALLBACK_TIME_ZONE = 'UTC';
const zoneValidity = new Map<string, boolean>();

/** Whether the zone is known (the profile's check); remembered, since every item asks on every refresh. */
function isKnownZone(zone: string): boolean {
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    valid = isValidTimeZone(zone);
    zoneValidity.set(zone, valid);
  }
  return valid;
}

/** The user's IANA zone, or UTC when it is missing or unknown (docs/product.md, Plans and limits: 'falling back to UTC'). */
export function safeTimeZone(tz: string | null | undefined): string {
  const zone = tz?.trim() ?? '';
  return zone !== '' && isKnownZone(zone) ? zone : FALLBACK_TIME_ZONE;
}

/** Epoch milliseconds of an instant given as a string or Date; null when it does not parse. */
export function epochOf(instant: string | Date | null | undefined): number | null {
  if (instant instanceof Date) return Number.isNaN(instant.getTime()) ? null : instant.getTime();
  const time = parseInstant(instant);
  return typeof time === 'number' ? time : null;
}

/** Epoch milliseconds as a date-time in the zone (UTC when the zone is unknown). */
export function zonedAtEpoch(epochMs: number, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(safeTimeZone(timeZone));
}

/** The instant as a date-time in the zone; null when the instant does not parse. */
export function zonedAt(instant: string | Date, timeZone: string): Temporal.ZonedDateTime | null {
  const time = epochOf(instant);
  return time === null ? null : zonedAtEpoch(time, timeZone);
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** 'YYYY-MM-DDTHH:mm' of a wall-clock date-time: the only shape datetime-local inputs take. */
function formatLocalInput(local: Temporal.PlainDateTime): string {
  return `${local.toPlainDate().toString()}T${pad(local.hour)}:${pad(local.minute)}`;
}

/** An instant as the value of an <input type="datetime-local"> in timeZone; '' when it does not parse. */
export function toLocalInput(instant: string | Date, timeZone: string): string {
  const zoned = zonedAt(instant, timeZone);
  return zoned === null ? '' : formatLocalInput(zoned.toPlainDateTime());
}

/** Exactly what a datetime-local input produces: minutes, optionally seconds and a fraction. */
const LOCAL_INPUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

/** A datetime-local value as a wall-clock date-time; null when it is not one (or not a real date). */
export function parseLocalInput(value: string): Temporal.PlainDateTime | null {
  const text = value.trim();
  if (!LOCAL_INPUT.test(text)) return null;
  try {
    return Temporal.PlainDateTime.from(text, { overflow: 'reject' });
  } catch {
    return null;
  }
}

/**
 * A wall-clock date-time in the zone as an instant. 'compatible' is what calendars do: a time
 * skipped by a spring-forward change moves forward by the gap (02:30 becomes 03:30), and a time
 * that happens twice in autumn means the first of the two.
 */
export function instantOfWallClock(local: Temporal.PlainDateTime, timeZone: string): string {
  const zoned = local.toZonedDateTime(safeTimeZone(timeZone), { disambiguation: 'compatible' });
  return new Date(zoned.epochMilliseconds).toISOString();
}

/** A datetime-local value read in timeZone back to an ISO instant; null for '' ; 'invalid' for garbage. */
export function fromLocalInput(value: string, timeZone: string): string | null | 'invalid' {
  if (value.trim() === '') return null;
  const local = parseLocalInput(value);
  return local === null ? 'invalid' : instantOfWallClock(local, timeZone);
}

const EVENT_LENGTH = { hours: 1 } as const;

/**
 * The end after the start changes (docs/product.md, Validation): one hour later for events, equal for tasks (a task
 * is due at one moment, so it sends end equal to start).
 *
 * Without a zone the hour is added on the wall clock, all a bare input value allows. Pass the
 * user's zone so that on a day the clocks change the end is one real hour after the start as
 * `fromLocalInput` will read it: in Europe/Berlin on 29 Mar 2026 a 02:30 start (read as 03:30)
 * ends at 04:30, not at 03:30, which would make an event of no length. Only when that end is a
 * wall-clock time that happens twice (the hour repeated in autumn), which the input cannot name,
 * is the wall-clock hour kept. A value that is not a date-time ('' or half-typed) is returned as
 * it is, for the form to flag.
 */
export function endAfterStartChange(start: string, isTask: boolean, timeZone?: string): string {
  const local = parseLocalInput(start);
  if (local === null) return start;
  if (isTask) return formatLocalInput(local);
  const wallClockEnd = local.add(EVENT_LENGTH);
  if (timeZone === undefined) return formatLocalInput(wallClockEnd);
  const zone = safeTimeZone(timeZone);
  const exactEnd = local.toZonedDateTime(zone, { disambiguation: 'compatible' }).add(EVENT_LENGTH);
  const shown = exactEnd.toPlainDateTime();
  const readsBack = shown.toZonedDateTime(zone, { disambiguation: 'compatible' }).equals(exactEnd);
  return formatLocalInput(readsBack ? shown : wallClockEnd);
}

/** 'YYYY-MM-DD' of an instant in timeZone; '' when it does not parse. */
export function localDate(instant: string | Date, timeZone: string): string {
  return zonedAt(instant, timeZone)?.toPlainDate().toString() ?? '';
}

/**
 * An all-day item's stored instants (docs/architecture.md): starts_at is the start of its first
 * day in the zone (local midnight, or the first moment after a transition that skips it) and
 * ends_at the start of the day after its last. 'invalid' when a day is not a date.
 */
export function allDayRange(
  firstDay: string,
  lastDay: string,
  timeZone: string,
): { starts_at: string; ends_at: string } | 'invalid' {
  try {
    const zone = safeTimeZone(timeZone);
    const first = Temporal.PlainDate.from(firstDay, { overflow: 'reject' });
    const last = Temporal.PlainDate.from(lastDay, { overflow: 'reject' });
    const startOf = (day: Temporal.PlainDate) => new Date(day.toZonedDateTime(zone).epochMilliseconds).toISOString();
    const end = Temporal.PlainDate.compare(last, first) < 0 ? first : last;
    return { starts_at: startOf(first), ends_at: startOf(end.add({ days: 1 })) };
  } catch {
    return 'invalid';
  }
}

/** The last day ('YYYY-MM-DD', inclusive) of an all-day item ending at `endsAt` (exclusive) in the zone. */
export function lastAllDay(startsAt: string, endsAt: string | null, timeZone: string): string {
  const first = localDate(startsAt, timeZone);
  const end = endsAt === null ? null : zonedAt(endsAt, timeZone);
  if (end === null) return first;
  const last = end.toPlainDate().subtract({ days: 1 }).toString();
  return last > first ? last : first;
}
