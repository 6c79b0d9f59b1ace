/**
 * Reminders of events and tasks: which occurrences remind, when, and what the
 * notification says. Pure: rows and the clock in, plans out; the app's scheduler reads the rows
 * and shows the notifications.
 *
 * A reminder is due at starts_at − reminder_minutes and is keyed `${id}@${starts_at}`, the start
 * in ISO 8601 UTC as the server's push tags it (so a pushed and a local notice replace each
 * other): one occurrence reminds once, a moved event again at its new time. It still fires late
 * (a sleeping device, a throttled timer) until the item starts, and at least REMINDER_GRACE_MS
 * after its due time; after that it is past and never fires. Completed tasks, deleted rows and a
 * task made without a date (stored due at its creation moment) do not remind.
 */
import { SAME_MOMENT_MS, timeOfDay } from './calendar-classify.ts';
import { epochOf, safeTimeZone } from './event-times.ts';

/** How long after its due time a late reminder still fires (when the item has already started). */
export const REMINDER_GRACE_MS = 5 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** Starts read around now: the longest offset is a day, and a plan looks at most a day ahead. */
export const WINDOW_BEFORE_MS = DAY_MS;
export const WINDOW_AFTER_MS = 2 * DAY_MS;

/** The fields of a calendar_events row a reminder reads. */
export interface ReminderRow {
  id: string;
  title: string;
  starts_at: string | null;
  is_task: boolean;
  is_completed: boolean;
  reminder_minutes?: number | null;
  created_at?: string | null;
  deleted_at?: string | null;
}

export interface Reminder {
  /** `${id}@${starts_at}`: the notification's tag and the shown-once key. */
  key: string;
  eventId: string;
  title: string;
  startsAt: string;
  isTask: boolean;
  /** Epoch milliseconds. */
  dueAt: number;
  /** Epoch milliseconds after which it is past. */
  staleAt: number;
}

export interface ReminderPlan {
  /** Due now and not shown yet, earliest first. */
  due: Reminder[];
  /** The earliest later reminder, to set the timer for; null when none in the window. */
  next: Reminder | null;
}

/** The occurrence's key (and notification tag). */
export const reminderKey = (id: string, startsAt: string | number) => `${id}@${new Date(startsAt).toISOString()}`;

/** The starts_at range to read for a plan at `now` (ISO strings, for the starts_at index). */
export function reminderWindow(now: Date): { from: string; to: string } {
  return {
    from: new Date(now.getTime() - WINDOW_BEFORE_MS).toISOString(),
    to: new Date(now.getTime() + WINDOW_AFTER_MS).toISOString(),
  };
}

/** The reminder a row carries, or null (none set, completed, deleted, undated). */
export function reminderOf(row: ReminderRow): Reminder | null {
  if (row.reminder_minutes == null || row.deleted_at != null || row.starts_at === null) return null;
  if (row.is_task && row.is_completed) return null;
  const start = epochOf(row.starts_at);
  if (start === null) return null;
  const created = epochOf(row.created_at);
  if (row.is_task && created !== null && Math.abs(start - created) <= SAME_MOMENT_MS) return null;
  const dueAt = start - row.reminder_minutes * 60_000;
  return {
    key: reminderKey(row.id, start),
    eventId: row.id,
    title: row.title,
    startsAt: row.starts_at,
    isTask: row.is_task,
    dueAt,
    staleAt: Math.max(start, dueAt + REMINDER_GRACE_MS),
  };
}

/** What to show now and when to look again, given the keys already shown. */
export function planReminders(rows: Iterable<ReminderRow>, now: Date, shown: ReadonlySet<string>): ReminderPlan {
  const at = now.getTime();
  const due: Reminder[] = [];
  let next: Reminder | null = null;
  for (const row of rows) {
    const reminder = reminderOf(row);
    if (!reminder || shown.has(reminder.key) || at >= reminder.staleAt) continue;
    if (reminder.dueAt <= at) due.push(reminder);
    else if (!next || reminder.dueAt < next.dueAt) next = reminder;
  }
  due.sort((a, b) => a.dueAt - b.dueAt);
  return { due, next };
}

const dayOf = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);

/** 'today at 14:30', 'tomorrow at 09:00' or 'on Fri 27 Nov at 09:00': `startsAt` in the zone, from `now`. */
export function whenPhrase(startsAt: string, now: Date, zone: string): string {
  const timeZone = safeTimeZone(zone);
  const start = new Date(startsAt);
  const time = timeOfDay(startsAt, timeZone);
  const day = dayOf(start, timeZone);
  if (day === dayOf(now, timeZone)) return `today at ${time}`;
  if (day === dayOf(new Date(now.getTime() + DAY_MS), timeZone)) return `tomorrow at ${time}`;
  const date = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' });
  return `on ${date.format(start)} at ${time}`;
}

/**
 * What a reminder says, shown by the device or pushed by the server alike: 'Starts today at
 * 14:30', 'Due tomorrow at 09:00', 'Starts on Fri 27 Nov at 09:00', or 'Starts now' once it has
 * started, in the user's zone.
 */
export function reminderBody(item: Pick<Reminder, 'isTask' | 'startsAt'>, timeZone: string, now: Date): string {
  const verb = item.isTask ? 'Due' : 'Starts';
  const start = epochOf(item.startsAt);
  if (start !== null && start <= now.getTime()) return `${verb} now`;
  return `${verb} ${whenPhrase(item.startsAt, now, timeZone)}`;
}

/** Shown keys worth keeping: those of occurrences that can still be read into a plan. */
export function keepShown(keys: Iterable<string>, now: Date): string[] {
  const oldest = now.getTime() - WINDOW_BEFORE_MS - DAY_MS;
  return [...keys].filter((key) => {
    const start = epochOf(key.slice(key.indexOf('@') + 1));
    return start !== null && start >= oldest;
  });
}
