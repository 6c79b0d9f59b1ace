/**
 * The words the calendar lists show for when an item is (docs/product.md, Calendar): a task's 'Due:' text and
 * an event's time, 'All day' for all-day items, in the user's locale and zone (date-format.ts).
 */
import { dayAround, SAME_MOMENT_MS, type CalendarItem } from './calendar-classify.ts';
import { readCalendarRecord } from './calendar-record.ts';
import { formatDate, formatDayMonth, formatTime } from './date-format.ts';
import { epochOf, zonedAtEpoch } from './event-times.ts';

export const ALL_DAY = 'All day';

/**
 * Whether a task reads 'Due: Today' (docs/product.md, Calendar): it has no date, or its due time is within
 * SAME_MOMENT_MS of its creation (a task made without a date is stored due at that moment).
 */
export function isDueToday(task: CalendarItem): boolean {
  const due = epochOf(readCalendarRecord(task).start);
  const created = epochOf(task.created_at);
  return due === null || (!task.all_day && created !== null && Math.abs(due - created) <= SAME_MOMENT_MS);
}

/**
 * A task's 'Due:' text (docs/product.md, Calendar): 'Due: Today' for a task without a chosen date, else its
 * time ('All day' for an all-day task), with the day when it is not today, in the user's locale
 * and zone (date-format.ts).
 */
export function dueText(task: CalendarItem, now: Date, timeZone: string, locale?: string): string {
  if (isDueToday(task)) return 'Due: Today';
  const due = epochOf(readCalendarRecord(task).start)!;
  const time = task.all_day ? ALL_DAY : formatTime(new Date(due), timeZone, locale);
  const today = dayAround(now, timeZone);
  if (due >= today.start && due < today.end) return `Due: ${time}`;
  return `Due: ${formatDayMonth(new Date(due), timeZone, locale)}, ${time}`;
}

/**
 * When an event is, as its list shows it: its time ('All day' for an all-day event), and with
 * `withDate` its day first ('27 Nov, 14:30'; the year too when it is not the current one).
 */
export function eventWhen(
  item: CalendarItem,
  timeZone: string,
  options: { withDate?: boolean; now?: Date; locale?: string } = {},
): string {
  const start = epochOf(readCalendarRecord(item).start);
  if (start === null) return '';
  const { withDate = false, now = new Date(), locale } = options;
  const time = item.all_day ? ALL_DAY : formatTime(new Date(start), timeZone, locale);
  if (!withDate) return time;
  const sameYear = zonedAtEpoch(start, timeZone).year === zonedAtEpoch(now.getTime(), timeZone).year;
  const day = sameYear
    ? formatDayMonth(new Date(start), timeZone, locale)
    : formatDate(new Date(start), timeZone, locale);
  return `${day}, ${time}`;
}
