/**
 * The item's reminder as a VALARM (RFC 5545 3.6.6): ACTION:DISPLAY, a DESCRIPTION (required for
 * DISPLAY; the title) and a TRIGGER `reminder_minutes` before the start, e.g. 'TRIGGER:-PT15M'.
 * The same choice the app and the server's push use (docs/reminders.md), so a subscribed calendar
 * reminds when Linkboard does. An all-day item's start is the local midnight of its day, so its
 * alarm is relative to that midnight in the reader's calendar as in the app.
 */
import { escape } from 'ical-generator';
import type { CalendarRow } from './calendar-row.ts';

/** The reminder's minutes, or null when the row has none (or a value that is not a whole number). */
export function reminderOf(row: Pick<CalendarRow, 'reminder_minutes'>): number | null {
  const minutes = row.reminder_minutes;
  return typeof minutes === 'number' && Number.isInteger(minutes) && minutes >= 0 ? minutes : null;
}

/** A DURATION before the start: 'PT0S', '-PT15M', '-PT1H', '-P1D'. */
export function durationBefore(minutes: number): string {
  if (minutes === 0) return 'PT0S';
  if (minutes % 1440 === 0) return `-P${minutes / 1440}D`;
  if (minutes % 60 === 0) return `-PT${minutes / 60}H`;
  return `-PT${minutes}M`;
}

/**
 * The VALARM lines for a VTODO (unfolded), which ical-generator does not write: relative to DUE
 * (RELATED=END, RFC 5545 3.8.6.3: a VTODO without DTSTART). None without a reminder or a due time.
 */
export function todoAlarmLines(row: CalendarRow, hasDue: boolean): string[] {
  const minutes = reminderOf(row);
  if (minutes === null || !hasDue) return [];
  return [
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${escape(row.title, false)}`,
    `TRIGGER;RELATED=END:${durationBefore(minutes)}`,
    'END:VALARM',
  ];
}
