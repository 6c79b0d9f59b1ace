/**
 * The reminder choices the event dialog and the profile's default offer, kept apart
 * from the planning (reminders.ts) so a form does not load the date library for its labels.
 */
import { reminderOffsets, type ReminderOffset } from './validation.ts';

/** The choices, in order; null is 'None'. */
export const reminderChoices: ReadonlyArray<{ value: ReminderOffset | null; label: string }> = [
  { value: null, label: 'None' },
  { value: 0, label: 'At time of event' },
  { value: 5, label: '5 minutes before' },
  { value: 15, label: '15 minutes before' },
  { value: 30, label: '30 minutes before' },
  { value: 60, label: '1 hour before' },
  { value: 1440, label: '1 day before' },
];

/** A select's value ('' for None) as a reminder; anything unknown is None. */
export function reminderFromInput(value: string): ReminderOffset | null {
  const minutes = Number(value);
  return value !== '' && (reminderOffsets as readonly number[]).includes(minutes) ? (minutes as ReminderOffset) : null;
}

/** A reminder as a select's value. */
export const reminderToInput = (value: number | null | undefined): string => (value == null ? '' : String(value));
