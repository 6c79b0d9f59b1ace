import { describe, expect, it } from 'vitest';
import { classifyCalendar, type CalendarItem } from '../../src/domain/calendar-classify.ts';
import { dueText, eventWhen } from '../../src/domain/calendar-texts.ts';
import {
  formatClock,
  formatDate,
  formatDateTime,
  formatDayMonthTime,
  formatTime,
  parseClock,
} from '../../src/domain/date-format.ts';
import { allDayRange } from '../../src/domain/event-times.ts';

/** One format from the user's locale and zone (src/domain/date-format.ts). */
const at = '2026-11-27T13:05:00.000Z'; // 14:05 in Berlin

describe('date-format', () => {
  it("writes times on the locale's clock: 24-hour in en-GB and de, 12-hour in en-US", () => {
    expect(formatTime(at, 'Europe/Berlin', 'en-GB')).toBe('14:05');
    expect(formatTime(at, 'Europe/Berlin', 'de-DE')).toBe('14:05');
    expect(formatTime(at, 'Europe/Berlin', 'en-US')).toBe('2:05 PM');
    expect(formatTime('2026-11-27T07:05:00Z', 'Europe/Berlin', 'en-GB')).toBe('08:05');
    expect(formatClock('00:05', 'en-GB')).toBe('00:05');
    expect(formatClock('00:05', 'en-US')).toBe('12:05 AM');
  });

  it('writes dates in the locale’s order and words, never ISO', () => {
    expect(formatDate(at, 'Europe/Berlin', 'en-GB')).toBe('27 Nov 2026');
    expect(formatDate(at, 'Europe/Berlin', 'en-US')).toBe('Nov 27, 2026');
    expect(formatDateTime(at, 'Europe/Berlin', 'en-GB')).toBe('27 Nov 2026, 14:05');
    expect(formatDayMonthTime(at, 'Europe/Berlin', 'en-US')).toBe('Nov 27, 2:05 PM');
    // The user's zone, not the machine's: 00:30 on 28 Nov in Tokyo.
    expect(formatDate('2026-11-27T15:30:00Z', 'Asia/Tokyo', 'en-GB')).toBe('28 Nov 2026');
  });

  it('reads what a user types in a time field, in the locale or the common forms', () => {
    for (const [text, clock] of [
      ['14:30', '14:30'],
      ['1430', '14:30'],
      ['9', '09:00'],
      ['9:05', '09:05'],
      ['14.30', '14:30'],
      ['2pm', '14:00'],
      ['2:30 p.m.', '14:30'],
      ['12 am', '00:00'],
      ['12:15 PM', '12:15'],
    ] as const) {
      expect(parseClock(text, 'en-US'), text).toBe(clock);
    }
    for (const text of ['', '25:00', '9:75', '13 pm', 'soon', '\u0000', '\ud800']) {
      expect(parseClock(text, 'en-US'), text).toBeNull();
    }
    // Every locale reads back what it writes, day periods and digits included.
    for (const locale of ['en-US', 'en-GB', 'de-DE', 'ko-KR', 'ar-EG', 'hi-IN']) {
      expect(parseClock(formatClock('14:30', locale), locale), locale).toBe('14:30');
      expect(parseClock(formatClock('00:05', locale), locale), locale).toBe('00:05');
    }
  });
});

describe('all-day items on the screens', () => {
  const zone = 'Europe/Berlin';
  const range = allDayRange('2026-11-27', '2026-11-27', zone) as { starts_at: string; ends_at: string };
  const item = (overrides: Partial<CalendarItem> = {}): CalendarItem => ({
    id: 'a',
    title: 'Offsite',
    description: null,
    ...range,
    is_task: false,
    priority: null,
    is_completed: false,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    series_id: null,
    all_day: true,
    ...overrides,
  });

  it("is in Today's Events for the whole day, and says 'All day' instead of a time", () => {
    expect(range).toEqual({ starts_at: '2026-11-26T23:00:00.000Z', ends_at: '2026-11-27T23:00:00.000Z' });
    for (const now of ['2026-11-26T23:00:00Z', '2026-11-27T12:00:00Z', '2026-11-27T22:59:00Z']) {
      const lists = classifyCalendar([item()], new Date(now), zone);
      expect(
        lists.todayEvents.map((event) => event.id),
        now,
      ).toEqual(['a']);
    }
    expect(classifyCalendar([item()], new Date('2026-11-27T23:01:00Z'), zone).pastEvents).toHaveLength(1);
    expect(eventWhen(item(), zone)).toBe('All day');
    expect(eventWhen(item(), zone, { withDate: true, now: new Date('2026-11-01T00:00:00Z'), locale: 'en-GB' })).toBe(
      '27 Nov, All day',
    );
  });

  it("gives an all-day task its day, not a time, and never 'Due: Today' on another day", () => {
    const task = item({ is_task: true, ends_at: range.starts_at, created_at: range.starts_at });
    expect(dueText(task, new Date('2026-11-27T09:00:00Z'), zone, 'en-GB')).toBe('Due: All day');
    expect(dueText(task, new Date('2026-11-20T09:00:00Z'), zone, 'en-GB')).toBe('Due: 27 Nov, All day');
  });
});
