/**
 * Local reminder notifications, offline. Reads the events and tasks starting in
 * [now − 1 day, now + 2 days] through the starts_at index, shows what is due (planReminders), and
 * sets one timer for the earliest next reminder. It plans again when those rows change (a
 * liveQuery), when the tab becomes visible, and at least hourly (the window moves with the clock).
 *
 * Each occurrence reminds once: its key is claimed in the Dexie `meta` row 'reminders_shown' in a
 * read-write transaction before the notification is shown, so neither a re-plan, a reload nor a
 * second tab shows it again (at most once: a crash between the two loses it rather than repeat it).
 */
import { liveQuery, type Subscription } from 'dexie';
import type { LinkboardDb } from '../../data/db.ts';
import { safeTimeZone } from '../../domain/event-times.ts';
import { keepShown, planReminders, reminderBody, reminderWindow, type Reminder } from '../../domain/reminders.ts';
import { appNow } from '../../backend/server-clock.ts';

export const SHOWN_KEY = 'reminders_shown';
/** The longest wait between plans, so a moving window and a changed clock are noticed. */
export const MAX_WAIT_MS = 60 * 60_000;

export interface ReminderNotification {
  title: string;
  options: NotificationOptions & { tag: string; data: { url: string } };
}

export interface ReminderSchedulerOptions {
  db: LinkboardDb;
  /** Shows one notification (the service worker's registration in the app). */
  show?(notification: ReminderNotification): Promise<void>;
  /** Whether notifications may show now ('granted'); nothing is claimed while they may not. */
  allowed?(): boolean;
  now?(): Date;
}

export interface ReminderScheduler {
  /** Plans now (also what the timer, the liveQuery and visibility call). */
  plan(): Promise<void>;
  dispose(): void;
}

/** Through the service worker, so a click opens the app; a page Notification where none is registered. */
export async function showThroughWorker({ title, options }: ReminderNotification): Promise<void> {
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  if (registration) {
    await (await navigator.serviceWorker.ready).showNotification(title, options);
    return;
  }
  new Notification(title, options);
}

const granted = () => typeof Notification !== 'undefined' && Notification.permission === 'granted';

/** Claims `key` as shown; false when it was already (by this tab, a reload or another tab). */
async function claim(db: LinkboardDb, key: string, now: Date): Promise<boolean> {
  return db.transaction('rw', db.meta, async () => {
    const row = await db.meta.get(SHOWN_KEY);
    const shown = Array.isArray(row?.value) ? (row.value as string[]) : [];
    if (shown.includes(key)) return false;
    await db.meta.put({ key: SHOWN_KEY, value: [...keepShown(shown, now), key] });
    return true;
  });
}

async function shownKeys(db: LinkboardDb): Promise<Set<string>> {
  const row = await db.meta.get(SHOWN_KEY);
  return new Set(Array.isArray(row?.value) ? (row.value as string[]) : []);
}

/**
 * The rows starting in the plan's window, through the starts_at index. Starts are ISO strings
 * ('…Z' made here, '…+00:00' from the server): compared as strings they may differ at an edge by
 * the offset, which the window's margins (a day before, a day more than needed after) absorb.
 */
function rowsInWindow(db: LinkboardDb, now: Date) {
  const { from, to } = reminderWindow(now);
  return db.calendar_events.where('starts_at').between(from, to, true, true).toArray();
}

export function startReminderScheduler(options: ReminderSchedulerOptions): ReminderScheduler {
  const { db } = options;
  const show = options.show ?? showThroughWorker;
  const allowed = options.allowed ?? granted;
  const now = options.now ?? appNow;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  let queue: Promise<void> = Promise.resolve();

  async function notify(reminder: Reminder, at: Date): Promise<void> {
    if (!(await claim(db, reminder.key, at))) return;
    const profile = await db.user_profiles.get(db.userId);
    const username = profile?.username ?? '';
    await show({
      title: reminder.title,
      options: {
        body: reminderBody(reminder, safeTimeZone(profile?.time_zone), at),
        tag: reminder.key,
        icon: '/icons/icon-192.png',
        data: { url: username ? `/Calendar/${username}` : '/Calendar' },
      },
    });
  }

  async function planOnce(): Promise<void> {
    if (disposed) return;
    const at = now();
    const [rows, shown] = await Promise.all([rowsInWindow(db, at), shownKeys(db)]);
    const plan = planReminders(rows, at, shown);
    if (allowed()) {
      for (const reminder of plan.due) await notify(reminder, at).catch(() => undefined);
    }
    if (disposed) return;
    clearTimeout(timer);
    const wait = plan.next ? Math.max(0, plan.next.dueAt - at.getTime()) : MAX_WAIT_MS;
    timer = setTimeout(() => void plan_(), Math.min(wait, MAX_WAIT_MS));
  }

  // One plan at a time: a liveQuery change, the timer and visibility may ask together. A failed
  // plan (the database closing at sign-out) waits for the next ask.
  const plan_ = (): Promise<void> => (queue = queue.then(planOnce).catch(() => undefined));

  let subscription: Subscription | undefined = liveQuery(() => rowsInWindow(db, now())).subscribe({
    next: () => void plan_(),
    error: () => undefined,
  });
  const onVisible = () => {
    if (document.visibilityState === 'visible') void plan_();
  };
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);

  return {
    plan: plan_,
    dispose() {
      disposed = true;
      clearTimeout(timer);
      subscription?.unsubscribe();
      subscription = undefined;
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
    },
  };
}
