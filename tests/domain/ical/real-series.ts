/**
 * Series made the way the app makes them, for the iCalendar tests that must see rows as they are
 * really stored: the dialog's `planSave` (expandSeries, the repeat-until day as 23:59 in the
 * user's zone) gives the series.create args; the caller runs them through the client's mutators
 * (Dexie) or sync_push (the server), deletes one occurrence, detaches and moves another, and reads
 * the rows back. `checkSeriesExport` then parses the .ics with ical.js and expands each RRULE.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { MutationArgs } from '../../../src/domain/mutation-contract.ts';
import { buildCalendarIcs, type CalendarRow } from '../../../src/domain/ical/calendar-ics.ts';
import { planSave, type EventFormValues } from '../../../src/features/calendar/event-form.ts';
import { byUid, expandedStarts, instantOf, parseIcs } from './ics-helpers.ts';

export interface SeriesCase {
  name: string;
  zone: string;
  rule: 'daily' | 'weekly' | 'monthly';
  /** datetime-local values in the zone, as the dialog holds them. */
  start: string;
  end: string;
  until: string;
  /** The RRULE line the export must write. */
  rrule: string;
  allDay?: boolean;
}

/** DST-crossing series in two zones, each rule, and the monthly clamp from the 31st. */
export const SERIES_CASES: SeriesCase[] = [
  {
    name: 'weekly over the spring change in Berlin',
    zone: 'Europe/Berlin',
    rule: 'weekly',
    start: '2026-03-16T09:00',
    end: '2026-03-16T10:00',
    until: '2026-04-27',
    rrule: 'RRULE:FREQ=WEEKLY;UNTIL=20260427T215959Z',
  },
  {
    name: 'daily over the autumn change in New York',
    zone: 'America/New_York',
    rule: 'daily',
    start: '2026-10-28T09:00',
    end: '2026-10-28T09:30',
    until: '2026-11-06',
    rrule: 'RRULE:FREQ=DAILY;UNTIL=20261107T045959Z',
  },
  {
    name: 'monthly from the 31st in Berlin, clamped to the last day',
    zone: 'Europe/Berlin',
    rule: 'monthly',
    start: '2026-01-31T18:00',
    end: '2026-01-31T19:00',
    until: '2026-12-31',
    rrule: 'RRULE:FREQ=MONTHLY;UNTIL=20261231T225959Z;BYMONTHDAY=-1',
  },
  {
    name: 'monthly over both changes in New York',
    zone: 'America/New_York',
    rule: 'monthly',
    start: '2026-01-15T08:30',
    end: '2026-01-15T09:00',
    until: '2026-12-31',
    rrule: 'RRULE:FREQ=MONTHLY;UNTIL=20270101T045959Z',
  },
];

const NOW = new Date('2026-01-01T00:00:00Z');

/** The series.create args the dialog sends for the case. */
export function seriesArgs(c: SeriesCase): MutationArgs['series.create'] {
  const values: EventFormValues = {
    title: `Series ${c.name}`,
    description: '',
    isTask: false,
    allDay: c.allDay ?? false,
    priority: 'medium',
    start: c.start,
    end: c.end,
    repeat: c.rule,
    until: c.until,
    scope: 'single',
    reminder: '15',
  };
  const plan = planSave(values, null, { timeZone: c.zone, now: NOW, newId: randomUUID });
  if (!plan.ok) throw new Error(plan.error);
  const [step] = plan.steps;
  if (step?.name !== 'series.create') throw new Error(`expected series.create, got ${step?.name}`);
  return step.args as MutationArgs['series.create'];
}

/** The edits a user makes: delete the 2nd occurrence, move the 4th by two hours ('this event only'). */
export function edits(args: MutationArgs['series.create']) {
  const deleted = args.occurrences[1]!;
  const moved = args.occurrences[3]!;
  const shift = (instant: string) => new Date(Date.parse(instant) + 2 * 3_600_000).toISOString();
  return {
    deleted,
    moved,
    delete: { id: deleted.id } satisfies MutationArgs['event.delete'],
    detach: {
      id: moved.id,
      title: 'Moved',
      starts_at: shift(moved.starts_at!),
      ends_at: shift(moved.ends_at!),
    } satisfies MutationArgs['occurrence.detach'],
  };
}

const iso = (instant: string | null) => new Date(instant ?? '').toISOString();

/**
 * Exports the stored rows and checks the case's series is one VEVENT whose RRULE, expanded by
 * ical.js in the file's VTIMEZONE, gives exactly the stored occurrences' starts, with the deleted
 * and the moved occurrence as EXDATEs and the moved one as its own event.
 */
export function checkSeriesExport(c: SeriesCase, args: MutationArgs['series.create'], rows: CalendarRow[]): string {
  const { deleted, moved } = edits(args);
  const ics = buildCalendarIcs(rows, { timeZone: c.zone, calendarName: 'Linkboard', now: NOW });
  const { events } = parseIcs(ics);
  const stored = rows
    .filter((row) => row.series_id === args.series_id)
    .map((row) => iso(row.starts_at))
    .sort();
  expect(stored).toHaveLength(args.occurrences.length - 2);
  const series = byUid(events, `${args.series_id}@linkboard`);
  expect(ics).toContain(`${c.rrule}\r\n`);
  expect(ics).toContain(`BEGIN:VTIMEZONE\r\nTZID:${c.zone}\r\n`);
  expect(series.getFirstProperty('dtstart')?.getParameter('tzid')).toBe(c.zone);
  expect(expandedStarts(series)).toEqual(stored);
  const exdates = series
    .getAllProperties('exdate')
    .flatMap((property) => property.getValues())
    .map((value) => (value as { toJSDate(): Date }).toJSDate().toISOString());
  expect(exdates).toEqual([iso(deleted.starts_at), iso(moved.starts_at)]);
  const detached = byUid(events, `${moved.id}@linkboard`);
  expect(detached.hasProperty('rrule')).toBe(false);
  expect(instantOf(detached, 'dtstart')).toBe(iso(rows.find((row) => row.id === moved.id)!.starts_at));
  expect(events).toHaveLength(2);
  return ics;
}
