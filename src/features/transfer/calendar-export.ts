/**
 * The export's events and tasks as an iCalendar (.ics) file, written by buildCalendarIcs
 * (src/domain/ical/calendar-ics.ts): events as VEVENTs, a series as one VEVENT with RRULE and
 * EXDATEs in the user's zone, tasks as VTODOs. DTSTAMP is the export's own time.
 */
import { epochOf } from '../../domain/event-times.ts';
import { buildCalendarIcs } from '../../domain/ical/calendar-ics.ts';
import type { ExportEvent, WorkspaceExport } from './workspace-export-format.ts';

export const CALENDAR_NAME = 'Linkboard';

/** The .ics document of the export's calendar, series in `timeZone`. */
export function buildCalendarFile(exp: WorkspaceExport, timeZone: string): string {
  return buildCalendarIcs(exp.events, { timeZone, calendarName: CALENDAR_NAME, now: new Date(exp.exported_at) });
}

/** Whether the .ics carries the item: every task, and every event with a start (one without has no day). */
export function inCalendarFile(event: ExportEvent): boolean {
  return event.is_task || epochOf(event.starts_at) !== null;
}
