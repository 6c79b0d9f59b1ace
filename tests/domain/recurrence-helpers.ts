/** What the recurrence tests share: a request, its occurrences, and the machine's zone set apart. */
import { Temporal } from 'temporal-polyfill';
import type { Expansion, OccurrenceTimes, SeriesRequest } from '../../src/domain/recurrence.ts';

export function request(overrides: Partial<SeriesRequest>): SeriesRequest {
  return {
    rule: 'weekly',
    start: '2026-11-23T09:00:00.000Z',
    end: '2026-11-23T10:00:00.000Z',
    until: '2026-12-31',
    timeZone: 'UTC',
    ...overrides,
  };
}

export function occurrencesOf(expansion: Expansion): OccurrenceTimes[] {
  if (!expansion.ok) throw new Error(`expected occurrences, got: ${expansion.error}`);
  return expansion.occurrences;
}

export const zoned = (instant: string, zone: string) => Temporal.Instant.from(instant).toZonedDateTimeISO(zone);
/** 'YYYY-MM-DDTHH:mm±hh:mm' of an instant in a zone: the wall clock and the offset it had. */
export const wallClock = (instant: string, zone: string) => {
  const at = zoned(instant, zone);
  return `${at.toPlainDate().toString()}T${at.toPlainTime().toString({ smallestUnit: 'minute' })}${at.offset}`;
};
export const starts = (occurrences: OccurrenceTimes[]) => occurrences.map((o) => o.starts_at);
export const lengths = (occurrences: OccurrenceTimes[]) =>
  occurrences.map((o) => (o.ends_at === null ? null : Date.parse(o.ends_at) - Date.parse(o.starts_at)));
