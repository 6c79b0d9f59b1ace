/**
 * The .ics export of series as the client stores them: made by the dialog's plan and the
 * mutators in IndexedDB (recurrence_end_date is 23:59 of the until day as an instant), with one
 * occurrence deleted and one moved, then exported and expanded by ical.js.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { localDate } from '../../src/domain/event-times.ts';
import { buildCalendarIcs } from '../../src/domain/ical/calendar-ics.ts';
import { parseIcs } from '../domain/ical/ics-helpers.ts';
import { checkSeriesExport, edits, SERIES_CASES, seriesArgs } from '../domain/ical/real-series.ts';
import { ctx, freshDb } from './helpers.ts';

describe('the .ics export of series stored by the client', () => {
  it.each(SERIES_CASES)('writes one RRULE for a series $name', async (c) => {
    const db = freshDb();
    const user = ctx({ tier: 'pro', timeZone: c.zone });
    const args = seriesArgs(c);
    const edit = edits(args);
    await mutate(db, 'series.create', args, user);
    await mutate(db, 'event.delete', edit.delete, user);
    await mutate(db, 'occurrence.detach', edit.detach, user);
    const rows = await db.calendar_events.toArray();
    checkSeriesExport(c, args, rows);
    db.close();
  });
});

/** The days ('YYYY-MM-DD') ical.js expands an all-day VEVENT's RRULE and EXDATEs to. */
function expandedDays(vevent: ICAL.Component): string[] {
  const iterator = new ICAL.Event(vevent).iterator();
  const days: string[] = [];
  for (let next = iterator.next(); next && days.length < 100; next = iterator.next()) {
    expect(next.isDate).toBe(true);
    days.push(next.toString());
  }
  return days;
}

describe('the .ics export of an all-day series stored by the client', () => {
  it('writes DATE values: DTSTART, DTEND, UNTIL and EXDATE, over a DST change', async () => {
    const c = {
      name: 'all-day weekly in Berlin',
      zone: 'Europe/Berlin',
      rule: 'weekly' as const,
      start: '2026-03-14T00:00',
      end: '2026-03-15T00:00',
      until: '2026-04-27',
      rrule: '',
      allDay: true,
    };
    const db = freshDb();
    const user = ctx({ tier: 'pro', timeZone: c.zone });
    const args = seriesArgs(c);
    expect(args.all_day).toBe(true);
    const edit = edits(args);
    await mutate(db, 'series.create', args, user);
    await mutate(db, 'event.delete', edit.delete, user);
    const rows = await db.calendar_events.toArray();
    // Every Saturday and Sunday, from Berlin's midnight to the one after Sunday: 48 hours, but
    // 47 on the weekend the clocks go forward (29 Mar), so no occurrence ends at 01:00.
    expect(rows.map((row) => row.all_day)).toEqual(rows.map(() => true));
    expect(rows.find((row) => row.id === edit.deleted.id)).toBeUndefined();
    expect(rows.find((row) => row.starts_at === '2026-03-13T23:00:00.000Z')?.ends_at).toBe('2026-03-15T23:00:00.000Z');
    expect(rows.find((row) => row.starts_at === '2026-03-27T23:00:00.000Z')?.ends_at).toBe('2026-03-29T22:00:00.000Z');
    expect(rows.find((row) => row.starts_at === '2026-04-03T22:00:00.000Z')?.ends_at).toBe('2026-04-05T22:00:00.000Z');
    const ics = buildCalendarIcs(rows, { timeZone: c.zone, calendarName: 'Linkboard', now: new Date() });
    expect(ics).toContain('DTSTART;VALUE=DATE:20260314\r\n');
    expect(ics).toContain('DTEND;VALUE=DATE:20260316\r\n');
    expect(ics).toContain('RRULE:FREQ=WEEKLY;UNTIL=20260427\r\n');
    expect(ics).toContain('EXDATE;VALUE=DATE:20260321\r\n');
    expect(ics).not.toContain('VTIMEZONE');
    const { events } = parseIcs(ics);
    expect(events).toHaveLength(1);
    const days = expandedDays(events[0]!);
    const stored = rows.map((row) => localDate(row.starts_at!, c.zone)).sort();
    expect(days).toEqual(stored);
    db.close();
  });
});
