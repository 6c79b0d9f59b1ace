/**
 * The event/task dialog's starting values (docs/product.md, Calendar): an item's, read in the user's time zone, or
 * a new one's, with the profile's default reminder. The fields are event-form.ts's.
 */
import { priorityOf } from '../../domain/calendar-classify.ts';
import { endAfterStartChange, lastAllDay, localDate, toLocalInput } from '../../domain/event-times.ts';
import { untilDay } from '../../domain/ical/series-plan.ts';
import { reminderToInput } from '../../domain/reminder-choices.ts';
import type { EventRow } from '../../data/rows.ts';
import type { EventFormValues } from './event-form.ts';

const timedValues = (item: EventRow, timeZone: string) => ({
  start: item.starts_at ? toLocalInput(item.starts_at, timeZone) : '',
  end: item.ends_at ? toLocalInput(item.ends_at, timeZone) : '',
});

/** An all-day item's first and last day (inclusive), as the date fields hold them. */
const allDayValues = (startsAt: string, endsAt: string | null, timeZone: string) => ({
  start: `${localDate(startsAt, timeZone)}T00:00`,
  end: `${lastAllDay(startsAt, endsAt, timeZone)}T00:00`,
});

/**
 * The dialog's starting values: an item's, or a new one's (starting at `start` when given, with
 * the profile's default reminder).
 */
export function initialValues(
  item: EventRow | null,
  timeZone: string,
  start?: string,
  defaultReminder?: number | null,
  task = false,
): EventFormValues {
  if (!item) {
    const from = start ?? '';
    return {
      title: '',
      description: '',
      isTask: task,
      allDay: false,
      priority: 'medium',
      start: from,
      end: from === '' ? '' : endAfterStartChange(from, false, timeZone),
      repeat: 'none',
      until: '',
      scope: 'single',
      reminder: reminderToInput(defaultReminder),
    };
  }
  const allDay = Boolean(item.all_day) && item.starts_at !== null;
  return {
    title: item.title,
    description: item.description ?? '',
    isTask: item.is_task,
    allDay: allDay,
    priority: priorityOf(item),
    ...(allDay ? allDayValues(item.starts_at!, item.ends_at, timeZone) : timedValues(item, timeZone)),
    repeat: item.recurrence_rule,
    until: untilDay(item.recurrence_end_date, timeZone),
    scope: 'single',
    reminder: reminderToInput(item.reminder_minutes),
  };
}
