/**
 * What the preview of a typed plan says (docs/product.md, Calendar 'Type a plan'): one row per field
 * the plan fills, in the user's zone and locale (date-format.ts), and the notes of what was not
 * read. Plain strings, so the calendar's dialog and any other screen show the same words.
 */
import {
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatDayMonthTime,
  formatter,
  formatTime,
} from './date-format.ts';
import { lastAllDay, localDate } from './event-times.ts';
import type { PlanReading } from './plain-words.ts';

export interface PreviewRow {
  label: string;
  value: string;
}

export interface PlanPreviewText {
  rows: PreviewRow[];
  notes: string[];
}

const RULE_NAMES = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' } as const;
const PRIORITY_NAMES = { low: 'Low', medium: 'Medium', high: 'High' } as const;
export const NO_TITLE = '(no title)';
export const CHOOSE_UNTIL = 'choose a repeat-until date';

function when(reading: PlanReading, timeZone: string, locale?: string): string | null {
  const { start, end, allDay, isTask } = reading;
  if (start === undefined) return null;
  if (allDay) {
    const first = localDate(start, timeZone);
    const last = isTask ? first : lastAllDay(start, end ?? null, timeZone);
    const day = (value: string) => formatDate(`${value}T12:00:00Z`, 'UTC', locale);
    return last === first ? `${day(first)}, all day` : `${day(first)} – ${day(last)}, all day`;
  }
  if (isTask || end === undefined || end === start) return formatDateTime(start, timeZone, locale);
  const sameDay = localDate(start, timeZone) === localDate(end, timeZone);
  return sameDay
    ? `${formatDateTime(start, timeZone, locale)} – ${formatTime(end, timeZone, locale)}`
    : `${formatDayMonthTime(start, timeZone, locale)} – ${formatDayMonthTime(end, timeZone, locale)}`;
}

/** The preview's rows and notes for a reading, dates in `timeZone`. */
export function planPreviewText(reading: PlanReading, timeZone: string, locale?: string): PlanPreviewText {
  const rows: PreviewRow[] = [
    { label: 'Type', value: reading.isTask ? 'Task' : 'Event' },
    { label: 'Title', value: reading.title === '' ? NO_TITLE : reading.title },
  ];
  const time = when(reading, timeZone, locale);
  if (time !== null) rows.push({ label: reading.isTask ? 'Due' : 'When', value: time });
  if (reading.repeat) {
    const until =
      reading.until === undefined
        ? CHOOSE_UNTIL
        : `until ${formatDayMonth(`${reading.until}T12:00:00Z`, 'UTC', locale)}`;
    rows.push({ label: 'Repeats', value: `${RULE_NAMES[reading.repeat]}, ${until}` });
  }
  if (reading.priority) rows.push({ label: 'Priority', value: PRIORITY_NAMES[reading.priority] });
  if (reading.understood.length > 0) {
    rows.push({ label: 'Read', value: reading.understood.map((phrase) => `'${phrase}'`).join(', ') });
  }
  return { rows, notes: reading.notUnderstood };
}

/** Whether the locale (the display locale when none is given) writes numeric dates day first: '3/4' is 3 April. */
export function isDayFirst(locale?: string): boolean {
  const parts = formatter({ day: 'numeric', month: 'numeric', timeZone: 'UTC' }, locale).formatToParts(0);
  return parts.findIndex((part) => part.type === 'day') < parts.findIndex((part) => part.type === 'month');
}
