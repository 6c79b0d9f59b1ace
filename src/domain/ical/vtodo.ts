/**
 * Tasks as VTODO components. ical-generator writes only VEVENT, so these lines are written here
 * with its TEXT escaping and UTC date format; the caller puts them into the VCALENDAR before it
 * is folded.
 *
 * - DUE is the task's starts_at (the dialog's 'due' date-time, docs/product.md, Calendar), in UTC: a task is due
 *   at one instant, so there is no zone to keep and no VTIMEZONE needed. A task without a start
 *   is still a task ('tasks without a date', docs/product.md, Calendar) and gets no DUE.
 * - STATUS is COMPLETED or NEEDS-ACTION; the completion time is not stored, so there is no
 *   COMPLETED property.
 * - PRIORITY: high 1, medium 5, low 9 (RFC 5545 3.8.1.9: 1 highest, 5 normal, 9 lowest); a
 *   task with no priority counts as medium, as the app reads it (calendar-record.ts).
 * - An all-day task is due on a day: 'DUE;VALUE=DATE:20261127', its local date in the user's zone.
 * - Its reminder is a VALARM relative to DUE (valarm.ts).
 */
import { escape, formatDate } from 'ical-generator';
import { epochOf, localDate } from '../event-times.ts';
import type { Priority } from '../validation.ts';
import { urlOf, type CalendarRow } from './calendar-row.ts';
import { todoAlarmLines } from './valarm.ts';

export const TASK_PRIORITY: Record<Priority, number> = { high: 1, medium: 5, low: 9 };

const text = (value: string): string => escape(value, false);

/** An instant as a UTC DATE-TIME ('20261123T090000Z'). */
export function utcStamp(epochMs: number): string {
  return formatDate(null, new Date(epochMs));
}

/** The optional instant property line, or nothing when the value is missing or invalid. */
function instantLine(name: string, value: string | null | undefined): string[] {
  const time = epochOf(value);
  return time === null ? [] : [`${name}:${utcStamp(time)}`];
}

/** DUE: a DATE for an all-day task (its day in the zone), else a UTC DATE-TIME; none without a start. */
function dueLine(row: CalendarRow, timeZone: string): string[] {
  if (!row.all_day || epochOf(row.starts_at) === null) return instantLine('DUE', row.starts_at);
  return [`DUE;VALUE=DATE:${localDate(row.starts_at ?? '', timeZone).replaceAll('-', '')}`];
}

/** The VTODO lines of one task (CRLF-joined, unfolded); all-day dates in timeZone. */
export function buildVtodo(row: CalendarRow, uid: string, stamp: Date, timeZone: string): string {
  const url = urlOf(row);
  const due = dueLine(row, timeZone);
  const lines = [
    'BEGIN:VTODO',
    `UID:${text(uid)}`,
    `DTSTAMP:${utcStamp(stamp.getTime())}`,
    ...instantLine('CREATED', row.created_at),
    ...instantLine('LAST-MODIFIED', row.updated_at),
    ...due,
    `SUMMARY:${text(row.title)}`,
    ...(row.description ? [`DESCRIPTION:${text(row.description)}`] : []),
    ...(url === null ? [] : [`URL;VALUE=URI:${url}`]),
    `STATUS:${row.is_completed ? 'COMPLETED' : 'NEEDS-ACTION'}`,
    `PRIORITY:${TASK_PRIORITY[row.priority ?? 'medium']}`,
    ...todoAlarmLines(row, due.length > 0),
    'END:VTODO',
  ];
  return lines.join('\r\n');
}
