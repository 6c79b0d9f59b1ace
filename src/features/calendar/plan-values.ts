/**
 * A typed plan (src/domain/plain-words.ts) as the event dialog's field values (docs/product.md,
 * Calendar 'Type a plan'): what 'Use this' fills, which the user can still correct before saving.
 */
import { lastAllDay, localDate, toLocalInput } from '../../domain/event-times.ts';
import type { PlanReading } from '../../domain/plain-words.ts';
import type { EventFormValues } from './event-form.ts';

export type PlanValues = Pick<
  EventFormValues,
  'title' | 'isTask' | 'allDay' | 'priority' | 'start' | 'end' | 'repeat' | 'until'
>;

/**
 * The fields a reading fills. A repeat is filled only where the plan allows series (`paid`);
 * a plan without a date leaves the start and end empty (a task then is due at its creation).
 */
export function planValues(reading: PlanReading, timeZone: string, paid: boolean): PlanValues {
  const { start, end, allDay } = reading;
  let times = { start: '', end: '' };
  if (start !== undefined && allDay) {
    times = { start: `${localDate(start, timeZone)}T00:00`, end: `${lastAllDay(start, end ?? null, timeZone)}T00:00` };
  } else if (start !== undefined) {
    times = { start: toLocalInput(start, timeZone), end: toLocalInput(end ?? start, timeZone) };
  }
  const repeat = paid && reading.repeat && !reading.isTask ? reading.repeat : 'none';
  return {
    title: reading.title,
    isTask: reading.isTask,
    allDay: start !== undefined && allDay,
    priority: reading.priority ?? 'medium',
    ...times,
    repeat,
    until: repeat === 'none' ? '' : (reading.until ?? ''),
  };
}
