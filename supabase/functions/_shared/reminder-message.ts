/**
 * What a reminder's Web Push says: the event's title, when it starts (or a task is due) in the
 * owner's time zone, a tag that names the occurrence (`<event id>@<start as ISO 8601 UTC>`, so the
 * device replaces rather than stacks a second notice for it, whether shown by the page or by a
 * push) and the calendar a tap opens: the key and the words are the device's own (src/domain/reminders.ts).
 * Pure: the clock is passed in.
 */
import { reminderBody, reminderKey } from '../../../src/domain/reminders.ts';

/** A claimed reminder, as claim_due_reminders returns it. */
export interface DueReminder {
  event_id: string;
  title: string;
  starts_at: string;
  is_task: boolean;
  reminder_minutes: number;
  time_zone: string;
  /** The owner's username, for the calendar's address (/Calendar/<username>); null before one is claimed. */
  username: string | null;
  subscription_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The JSON the service worker's push handler reads. */
export interface ReminderPayload {
  title: string;
  body: string;
  tag: string;
  url: string;
}

/** The notice for a claimed reminder; `siteUrl` is the app's origin. */
export function reminderPayload(reminder: DueReminder, siteUrl: string, now: Date): ReminderPayload {
  return {
    title: reminder.title,
    body: reminderBody({ isTask: reminder.is_task, startsAt: reminder.starts_at }, reminder.time_zone, now),
    tag: reminderKey(reminder.event_id, reminder.starts_at),
    url: new URL(reminder.username ? `/Calendar/${encodeURIComponent(reminder.username)}` : '/Calendar', siteUrl).href,
  };
}
