import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { RowOf } from '../../../src/data/synced-tables.ts';
import { buildCalendarIcs, type CalendarRow } from '../../../src/domain/ical/calendar-ics.ts';
import {
  byUid,
  expandedStarts,
  instantOf,
  linesOf,
  makeRow,
  NOW,
  parseIcs,
  seriesRows,
  startsOf,
  ZONE,
} from './ics-helpers.ts';

// The process runs in a zone none of the tested zones share, so anything formatted in the
// machine's zone instead of the user's comes out wrong.
const machineZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Kolkata';
});
afterAll(() => {
  process.env.TZ = machineZone;
});

const build = (rows: CalendarRow[], zone = ZONE) =>
  buildCalendarIcs(rows, { timeZone: zone, calendarName: 'Anna, work; home', now: NOW });

describe('buildCalendarIcs', () => {
  it('takes stored calendar_events rows as they are', () => {
    expectTypeOf<RowOf<'calendar_events'>>().toExtend<CalendarRow>();
  });

  it('writes a single event in UTC with UID, DTSTAMP, text and URL', () => {
    const ics = build([
      makeRow({ id: 'e1', title: 'https://example.com/agenda', description: 'Room 4' }),
      makeRow({ id: 'no-start', starts_at: null, ends_at: null }),
    ]);
    const { calendar, events, todos } = parseIcs(ics);
    // NAME (RFC 7986) and X-WR-CALNAME are TEXT: escaped (ical.js knows neither, so reads them raw).
    expect(ics).toContain('NAME:Anna\\, work\\; home\r\n');
    expect(ics).toContain('X-WR-CALNAME:Anna\\, work\\; home\r\n');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//Linkboard//Calendar//EN');
    expect(events).toHaveLength(1);
    expect(todos).toHaveLength(0);
    const event = byUid(events, 'e1@linkboard');
    expect(instantOf(event, 'dtstamp')).toBe(NOW.toISOString());
    expect(instantOf(event, 'dtstart')).toBe('2026-02-10T08:00:00.000Z');
    expect(instantOf(event, 'dtend')).toBe('2026-02-10T08:30:00.000Z');
    expect(event.getFirstPropertyValue('summary')).toBe('https://example.com/agenda');
    expect(event.getFirstPropertyValue('description')).toBe('Room 4');
    expect(event.getFirstPropertyValue('url')).toBe('https://example.com/agenda');
    expect(ics).toContain('DTSTART:20260210T080000Z\r\n');
    expect(ics).not.toContain('VTIMEZONE');
    expect(ics).not.toContain('X-WR-TIMEZONE');
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('writes tasks as VTODO with DUE, STATUS and PRIORITY', () => {
    const ics = build([
      makeRow({ id: 't1', is_task: true, priority: 'high', is_completed: true, ends_at: null }),
      makeRow({ id: 't2', is_task: true, priority: 'low', starts_at: null, ends_at: null }),
      makeRow({ id: 't3', is_task: true, priority: null, description: 'see https://x.y' }),
    ]);
    const { events, todos } = parseIcs(ics);
    expect(events).toHaveLength(0);
    expect(todos).toHaveLength(3);
    const done = byUid(todos, 't1@linkboard');
    expect(instantOf(done, 'due')).toBe('2026-02-10T08:00:00.000Z');
    expect(instantOf(done, 'dtstamp')).toBe(NOW.toISOString());
    expect(done.getFirstPropertyValue('status')).toBe('COMPLETED');
    expect(done.getFirstPropertyValue('priority')).toBe(1);
    const undated = byUid(todos, 't2@linkboard');
    expect(undated.hasProperty('due')).toBe(false);
    expect(undated.getFirstPropertyValue('status')).toBe('NEEDS-ACTION');
    expect(undated.getFirstPropertyValue('priority')).toBe(9);
    const medium = byUid(todos, 't3@linkboard');
    expect(medium.getFirstPropertyValue('priority')).toBe(5);
    expect(medium.hasProperty('url')).toBe(false);
  });

  it('writes a weekly series across a DST change as RRULE + EXDATEs + the detached event', () => {
    // 09:00 Berlin every Monday from 16 Mar 2026; the clocks change on 29 Mar.
    const stored = seriesRows('s1', {
      rule: 'weekly',
      start: '2026-03-16T08:00:00.000Z',
      end: '2026-03-16T09:00:00.000Z',
      until: '2026-04-27',
    });
    expect(stored).toHaveLength(7);
    const deleted = stored[1]!;
    const detached = { ...stored[3]!, series_id: null, recurrence_rule: 'none' as const, title: 'Moved' };
    const kept = stored.filter((row) => row !== deleted && row.id !== detached.id);
    const ics = build([...kept, detached]);
    const { events } = parseIcs(ics);
    expect(events).toHaveLength(2);

    const series = byUid(events, 's1@linkboard');
    expect(ics).toContain('DTSTART;TZID=Europe/Berlin:20260316T090000\r\n');
    expect(ics).toContain('DTEND;TZID=Europe/Berlin:20260316T100000\r\n');
    expect(ics).toContain('RRULE:FREQ=WEEKLY;UNTIL=20260427T215959Z\r\n');
    expect(ics).toContain('EXDATE;TZID=Europe/Berlin:20260323T090000,20260406T090000\r\n');
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n');
    expect(ics).toContain('TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200');
    expect(series.getAllProperties('exdate')).toHaveLength(1);
    expect(series.getFirstProperty('exdate')?.getValues()).toHaveLength(2);
    expect(expandedStarts(series)).toEqual(startsOf(kept));
    expect(startsOf(kept)).toContain('2026-04-13T07:00:00.000Z');

    const moved = byUid(events, `${detached.id}@linkboard`);
    expect(moved.getFirstPropertyValue('summary')).toBe('Moved');
    expect(instantOf(moved, 'dtstart')).toBe('2026-04-06T07:00:00.000Z');
    expect(moved.hasProperty('rrule')).toBe(false);
  });

  it('writes a monthly series from the 31st with BYMONTHDAY=-1, clamped like the app', () => {
    const stored = seriesRows('m31', {
      rule: 'monthly',
      start: '2026-01-31T17:00:00.000Z',
      end: null,
      until: '2026-12-31',
    });
    expect(stored).toHaveLength(12);
    const ics = build(stored);
    expect(ics).toContain('RRULE:FREQ=MONTHLY;UNTIL=20261231T225959Z;BYMONTHDAY=-1\r\n');
    const { events } = parseIcs(ics);
    expect(events).toHaveLength(1);
    expect(expandedStarts(events[0]!)).toEqual(startsOf(stored));
    expect(startsOf(stored)).toContain('2026-02-28T17:00:00.000Z');
  });

  it('writes a monthly series from the 30th as one VEVENT per occurrence', () => {
    const stored = seriesRows('m30', {
      rule: 'monthly',
      start: '2026-04-30T07:00:00.000Z',
      end: null,
      until: '2026-08-31',
    });
    const { events } = parseIcs(build(stored));
    expect(events.map((event) => instantOf(event, 'dtstart'))).toEqual(startsOf(stored));
    expect(events.every((event) => !event.hasProperty('rrule'))).toBe(true);
    expect(events.map((event) => event.getFirstPropertyValue('uid'))).toContain('m30-1@linkboard');
  });

  it('falls back to one VEVENT per occurrence when an occurrence was moved', () => {
    const stored = seriesRows('d', {
      rule: 'daily',
      start: '2026-03-01T08:00:00.000Z',
      end: null,
      until: '2026-03-05',
    });
    stored[2] = { ...stored[2]!, starts_at: '2026-03-03T09:30:00.000Z' };
    const { events } = parseIcs(build(stored));
    expect(events).toHaveLength(5);
    expect(events.map((event) => instantOf(event, 'dtstart'))).toEqual(startsOf(stored));
  });

  it('writes a daily series of 1,000 occurrences as one rule ical.js expands exactly', () => {
    const stored = seriesRows('long', {
      rule: 'daily',
      start: '2026-01-01T05:30:00.000Z',
      end: '2026-01-01T06:00:00.000Z',
      until: '2028-09-26',
    });
    expect(stored).toHaveLength(1000);
    const ics = build(stored);
    const { events } = parseIcs(ics);
    expect(events).toHaveLength(1);
    expect(expandedStarts(events[0]!)).toEqual(startsOf(stored));
    expect(ics.match(/BEGIN:DAYLIGHT/g)).toHaveLength(3);
  });

  it('expands a series in a southern-hemisphere zone at its wall-clock time', () => {
    const zone = 'Australia/Sydney';
    const start = '2026-03-01T22:00:00.000Z'; // 09:00 on 2 Mar in Sydney; DST ends on 5 Apr
    const stored = seriesRows('syd', { rule: 'weekly', start, end: null, until: '2026-05-31' }, zone);
    const ics = build(stored, zone);
    expect(ics).toContain('DTSTART;TZID=Australia/Sydney:20260302T090000\r\n');
    expect(expandedStarts(parseIcs(ics).events[0]!)).toEqual(startsOf(stored));
  });

  it('writes a series in UTC without VTIMEZONE when the zone is unknown', () => {
    const stored = seriesRows(
      'u',
      { rule: 'weekly', start: '2026-03-16T08:00:00.000Z', end: null, until: '2026-04-27' },
      'UTC',
    );
    const ics = build(stored, 'Not/AZone');
    expect(ics).toContain('DTSTART:20260316T080000Z\r\n');
    expect(ics).not.toContain('VTIMEZONE');
    expect(expandedStarts(parseIcs(ics).events[0]!)).toEqual(startsOf(stored));
  });

  it('escapes commas, semicolons, backslashes, newlines and emoji so they round-trip', () => {
    const title = 'Lunch, dinner; drinks \\ 🎉 Grüße';
    const description = 'Line one,\nline two; with a backslash \\n\n\n👩‍👩‍👧 family';
    const ics = build([
      makeRow({ id: 'odd', title, description }),
      makeRow({ id: 'odd-task', title, description, is_task: true }),
    ]);
    expect(ics).toContain('SUMMARY:Lunch\\, dinner\\; drinks \\\\ 🎉 Grüße\r\n');
    const { events, todos } = parseIcs(ics);
    for (const component of [events[0]!, todos[0]!]) {
      expect(component.getFirstPropertyValue('summary')).toBe(title);
      expect(component.getFirstPropertyValue('description')).toBe(description);
    }
  });

  it('folds lines at 75 octets without splitting a character', () => {
    const description = `${'Long text with ümlauts and emoji 🎉 '.repeat(20)}end`;
    const ics = build([
      makeRow({ id: 'long-event', description }),
      makeRow({ id: 'long-task', description, is_task: true }),
    ]);
    const lines = linesOf(ics);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    for (const line of lines) {
      expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
      expect(line).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    const { events, todos } = parseIcs(ics);
    expect(events[0]!.getFirstPropertyValue('description')).toBe(description);
    expect(todos[0]!.getFirstPropertyValue('description')).toBe(description);
  });

  it("writes the item's reminder as a VALARM: before the start of an event, before a task's DUE", () => {
    const ics = build([
      makeRow({ id: 'r15', reminder_minutes: 15 }),
      makeRow({ id: 'r0', reminder_minutes: 0 }),
      makeRow({ id: 'none', reminder_minutes: null }),
      makeRow({ id: 'task', is_task: true, reminder_minutes: 1440 }),
      makeRow({ id: 'undated', is_task: true, starts_at: null, ends_at: null, reminder_minutes: 60 }),
    ]);
    const { events, todos } = parseIcs(ics);
    const alarm = (component: ReturnType<typeof byUid>) => component.getFirstSubcomponent('valarm');
    const r15 = alarm(byUid(events, 'r15@linkboard'))!;
    expect(r15.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect(r15.getFirstPropertyValue('description')).toBe('Standup');
    expect(String(r15.getFirstPropertyValue('trigger'))).toBe('-PT15M');
    expect(ics).toContain('TRIGGER:-PT15M\r\n');
    expect(String(alarm(byUid(events, 'r0@linkboard'))!.getFirstPropertyValue('trigger'))).toBe('PT0S');
    expect(alarm(byUid(events, 'none@linkboard'))).toBeNull();
    const task = alarm(byUid(todos, 'task@linkboard'))!;
    expect(task.getFirstProperty('trigger')?.getParameter('related')).toBe('END');
    expect(String(task.getFirstPropertyValue('trigger'))).toBe('-P1D');
    // A task without a due time has nothing to remind before.
    expect(alarm(byUid(todos, 'undated@linkboard'))).toBeNull();
  });

  it('writes all-day events and tasks as DATE values on their days in the user zone', () => {
    // As the dialog stores them in Berlin: 27 Nov from its midnight to the one after 28 Nov.
    const ics = build([
      makeRow({ id: 'day', all_day: true, starts_at: '2026-11-26T23:00:00.000Z', ends_at: '2026-11-28T23:00:00.000Z' }),
      makeRow({
        id: 'due',
        is_task: true,
        all_day: true,
        starts_at: '2026-11-26T23:00:00.000Z',
        ends_at: '2026-11-26T23:00:00.000Z',
      }),
    ]);
    expect(ics).toContain('DTSTART;VALUE=DATE:20261127\r\n');
    expect(ics).toContain('DTEND;VALUE=DATE:20261129\r\n');
    expect(ics).toContain('DUE;VALUE=DATE:20261127\r\n');
    expect(ics).not.toContain('VTIMEZONE');
    const { events, todos } = parseIcs(ics);
    const start = byUid(events, 'day@linkboard').getFirstPropertyValue('dtstart') as { isDate: boolean };
    expect(start.isDate).toBe(true);
    expect(String(byUid(todos, 'due@linkboard').getFirstPropertyValue('due'))).toBe('2026-11-27');
  });
});
