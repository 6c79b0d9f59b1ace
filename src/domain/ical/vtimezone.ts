/**
 * A VTIMEZONE for an IANA zone, built from the runtime's own zone data (Temporal over Intl), so
 * it works the same in Node and in the browser and needs no bundled tz database.
 *
 * It lists the zone's actual transitions over a span of instants, one observance per transition
 * (a DTSTART without RRULE is a single onset, RFC 5545 3.6.5), led by the last transition before
 * the span so that a reader knows the offset at the span's first instant. A zone without any
 * transition (UTC-like, or fixed since before the span) gets one STANDARD observance. Outside the
 * span a reader keeps the last observance's offset, which is why the span must cover every local
 * time the calendar names: DTSTART, EXDATE and every occurrence its RRULE produces up to UNTIL.
 *
 * STANDARD or DAYLIGHT is a label readers show, not a rule they apply: an observance is DAYLIGHT
 * when its offset is above the lower of the offsets on 1 January and 1 July of its year.
 */
import { Temporal } from 'temporal-polyfill';

const NS_PER_SECOND = 1_000_000_000;
/** Onset of the lone observance of a zone without transitions: any date before all exports. */
const EPOCH_ONSET = '19700101T000000';

const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

/** An offset in nanoseconds as ±HHMM, or ±HHMMSS when it has seconds (old local mean times). */
export function formatOffset(offsetNs: number): string {
  const totalSeconds = Math.round(Math.abs(offsetNs) / NS_PER_SECOND);
  const sign = offsetNs < 0 ? '-' : '+';
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return `${sign}${pad(hours)}${pad(minutes)}${seconds === 0 ? '' : pad(seconds)}`;
}

/** A wall-clock date-time as an iCalendar local DATE-TIME ('19700329T020000'). */
export function formatLocal(local: Temporal.PlainDateTime): string {
  const date = `${pad(local.year, 4)}${pad(local.month)}${pad(local.day)}`;
  return `${date}T${pad(local.hour)}${pad(local.minute)}${pad(local.second)}`;
}

function offsetAt(epochNs: bigint, timeZone: string): number {
  return new Temporal.Instant(epochNs).toZonedDateTimeISO(timeZone).offsetNanoseconds;
}

/** The lower of the offsets on 1 January and 1 July of the year: the zone's standard offset. */
function standardOffset(year: number, timeZone: string): number {
  const at = (month: number) => new Temporal.PlainDate(year, month, 1).toZonedDateTime(timeZone).offsetNanoseconds;
  return Math.min(at(1), at(7));
}

/** One observance: the transition at `onset`, written in the offset in force before it. */
function observance(onset: Temporal.ZonedDateTime, timeZone: string): string[] {
  const from = offsetAt(onset.epochNanoseconds - 1n, timeZone);
  const to = onset.offsetNanoseconds;
  const localBefore = onset.toInstant().toZonedDateTimeISO('UTC').toPlainDateTime().add({ nanoseconds: from });
  const kind = to > standardOffset(onset.year, timeZone) ? 'DAYLIGHT' : 'STANDARD';
  return [
    `BEGIN:${kind}`,
    `DTSTART:${formatLocal(localBefore.round({ smallestUnit: 'second', roundingMode: 'floor' }))}`,
    `TZOFFSETFROM:${formatOffset(from)}`,
    `TZOFFSETTO:${formatOffset(to)}`,
    `END:${kind}`,
  ];
}

/**
 * The VTIMEZONE lines (CRLF-joined, unfolded) for the zone over [fromMs, toMs]. The zone must
 * be a valid IANA name; the caller checks it (safeTimeZone).
 */
export function buildVtimezone(timeZone: string, fromMs: number, toMs: number): string {
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  // One millisecond in, so that a transition at the span's very first instant counts as 'previous'.
  const first = Temporal.Instant.fromEpochMilliseconds(fromMs + 1).toZonedDateTimeISO(timeZone);
  const before = first.getTimeZoneTransition('previous');
  if (before === null) {
    const offset = formatOffset(first.offsetNanoseconds);
    lines.push(
      'BEGIN:STANDARD',
      `DTSTART:${EPOCH_ONSET}`,
      `TZOFFSETFROM:${offset}`,
      `TZOFFSETTO:${offset}`,
      'END:STANDARD',
    );
  } else {
    lines.push(...observance(before, timeZone));
  }
  let next = first.getTimeZoneTransition('next');
  while (next !== null && next.epochMilliseconds <= toMs) {
    lines.push(...observance(next, timeZone));
    next = next.getTimeZoneTransition('next');
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}
