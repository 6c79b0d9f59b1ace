/** Builders and an ical.js reader for the iCalendar export's tests. */
import ICAL from 'ical.js';
import type { CalendarRow } from '../../../src/domain/ical/calendar-row.ts';
import { fromLocalInput } from '../../../src/domain/event-times.ts';
import { expandSeries, type SeriesRequest } from '../../../src/domain/recurrence.ts';

export const ZONE = 'Europe/Berlin';
export const NOW = new Date('2026-01-05T12:00:00.000Z');

export function makeRow(overrides: Partial<CalendarRow> = {}): CalendarRow {
  return {
    id: 'row-1',
    title: 'Standup',
    description: null,
    starts_at: '2026-02-10T08:00:00.000Z',
    ends_at: '2026-02-10T08:30:00.000Z',
    is_task: false,
    priority: null,
    is_completed: false,
    series_id: null,
    recurrence_rule: 'none',
    recurrence_end_date: null,
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-02T10:00:00.000Z',
    ...overrides,
  };
}

/** The rows the app stores for a series: one per occurrence, ids '<seriesId>-<n>'. */
export function seriesRows(seriesId: string, request: Omit<SeriesRequest, 'timeZone'>, zone = ZONE): CalendarRow[] {
  const expansion = expandSeries({ ...request, timeZone: zone });
  if (!expansion.ok) throw new Error(expansion.error);
  return expansion.occurrences.map((times, index) =>
    makeRow({
      ...times,
      id: `${seriesId}-${index}`,
      title: 'Series',
      series_id: seriesId,
      recurrence_rule: request.rule,
      // Stored as the app stores it: 23:59 of the until day in the zone, as an instant.
      recurrence_end_date: fromLocalInput(`${request.until}T23:59`, zone) as string,
    }),
  );
}

export interface Parsed {
  calendar: ICAL.Component;
  events: ICAL.Component[];
  todos: ICAL.Component[];
}

/** Parses the document with ical.js and registers its VTIMEZONEs for TZID lookups. */
export function parseIcs(ics: string): Parsed {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return {
    calendar,
    events: calendar.getAllSubcomponents('vevent'),
    todos: calendar.getAllSubcomponents('vtodo'),
  };
}

export function byUid(components: ICAL.Component[], uid: string): ICAL.Component {
  const found = components.find((component) => component.getFirstPropertyValue('uid') === uid);
  if (!found) throw new Error(`no component ${uid}`);
  return found;
}

/** A DATE-TIME property as an ISO instant, read through ical.js (and its zone, for TZID). */
export function instantOf(component: ICAL.Component, name: string): string | null {
  const value = component.getFirstPropertyValue(name);
  return value instanceof ICAL.Time ? value.toJSDate().toISOString() : null;
}

/** The start instants ical.js expands the VEVENT's RRULE and EXDATEs to. */
export function expandedStarts(vevent: ICAL.Component, limit = 2000): string[] {
  const iterator = new ICAL.Event(vevent).iterator();
  const starts: string[] = [];
  for (let next = iterator.next(); next && starts.length < limit; next = iterator.next()) {
    starts.push(next.toJSDate().toISOString());
  }
  return starts;
}

export const startsOf = (rows: readonly CalendarRow[]): string[] =>
  rows.map((row) => new Date(row.starts_at ?? '').toISOString());

/** The physical lines of the document (without their CRLF). */
export const linesOf = (ics: string): string[] => ics.split('\r\n').slice(0, -1);
