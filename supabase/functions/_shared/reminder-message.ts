/**
 * What a reminder's Web Push says: the event's title, when it starts (or a task is due) in the
 * owner's time zone, a tag that names the occurrence (`<event id>@<start as ISO 8601 UTC>`, so the
 * device replaces rather than stacks a second notice for it, whether shown by the page or by a
 * push) and the calendar a tap opens (the page's own reminders do the same). Pure: the clock is passed in.
 */

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

/** The tag of one occurrence's notice. */
export function reminderTag(eventId: string, startsAt: string): string {
  return `${eventId}@${new Date(startsAt).toISOString()}`;
}

function zoneOrUtc(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

const dayOf = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);

/** 'today at 14:30', 'tomorrow at 09:00' or 'on Fri 27 Nov at 09:00', in the zone, relative to now. */
export function whenPhrase(startsAt: Date, now: Date, zone: string): string {
  const timeZone = zoneOrUtc(zone);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(startsAt);
  const day = dayOf(startsAt, timeZone);
  if (day === dayOf(now, timeZone)) return `today at ${time}`;
  if (day === dayOf(new Date(now.getTime() + 86_400_000), timeZone)) return `tomorrow at ${time}`;
  const date = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' });
  return `on ${date.format(startsAt)} at ${time}`;
}

/** The notice for a claimed reminder; `siteUrl` is the app's origin. */
export function reminderPayload(reminder: DueReminder, siteUrl: string, now: Date): ReminderPayload {
  const startsAt = new Date(reminder.starts_at);
  const when =
    reminder.reminder_minutes === 0 && startsAt <= now ? 'now' : whenPhrase(startsAt, now, reminder.time_zone);
  return {
    title: reminder.title,
    body: `${reminder.is_task ? 'Due' : 'Starts'} ${when}`,
    tag: reminderTag(reminder.event_id, reminder.starts_at),
    url: new URL(reminder.username ? `/Calendar/${encodeURIComponent(reminder.username)}` : '/Calendar', siteUrl).href,
  };
}
