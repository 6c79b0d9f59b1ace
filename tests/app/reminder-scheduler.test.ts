// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SHOWN_KEY,
  startReminderScheduler,
  type ReminderNotification,
  type ReminderScheduler,
} from '../../src/app/reminders/reminder-scheduler.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { ReminderOffset } from '../../src/domain/validation.ts';
import { ctx } from '../data/helpers.ts';
import { ME, uuid } from '../support/builders.ts';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const MIN = 60_000;

let db: LinkboardDb;
let scheduler: ReminderScheduler | null;
let shown: ReminderNotification[];

/** The user's database; opening it again is a reload. */
const open = () => openUserDb(ME);
function start(allowed = true) {
  scheduler = startReminderScheduler({
    db,
    show: async (notification) => void shown.push(notification),
    allowed: () => allowed,
  });
  return scheduler;
}
/** Lets the liveQuery, the plan and the IndexedDB work queued so far run. */
async function settle() {
  for (let i = 0; i < 5; i++) {
    await vi.advanceTimersByTimeAsync(0);
    await scheduler?.plan();
  }
}

beforeEach(async () => {
  vi.useFakeTimers({ now: NOW, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  db = open();
  shown = [];
  scheduler = null;
  await db.user_profiles.put({
    id: ME,
    email: 'me@example.com',
    full_name: '',
    username: 'me',
    bio: '',
    subscription_tier: 'pro',
    time_zone: 'Europe/Berlin',
    created_at: '',
    updated_at: '',
  });
});
afterEach(async () => {
  scheduler?.dispose();
  db.close();
  vi.useRealTimers();
  await deleteUserDb(ME);
});

const offline = ctx({ tier: 'pro', now: () => new Date() });
const eventArgs = (id: string, title: string, starts_at: string, reminder_minutes: ReminderOffset) => ({
  id,
  title,
  starts_at,
  ends_at: starts_at,
  is_task: false,
  reminder_minutes,
});

describe('the reminder scheduler', () => {
  it('shows one notification per occurrence, at its time, across re-plans and a reload', async () => {
    const event = uuid();
    // Made offline: only the local write and the outbox, nothing sent.
    await mutate(db, 'event.create', eventArgs(event, 'Dentist', '2026-03-15T12:10:00.000Z', 5), offline);
    start();
    await settle();
    expect(shown).toEqual([]);

    await vi.advanceTimersByTimeAsync(5 * MIN - 1);
    await settle();
    expect(shown).toEqual([]);
    // The timer set for 12:05 shows it, with no other call.
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(shown).toHaveLength(1));
    expect(shown).toEqual([
      {
        title: 'Dentist',
        options: {
          body: 'Starts today at 13:10',
          tag: `${event}@2026-03-15T12:10:00.000Z`,
          icon: '/icons/icon-192.png',
          data: { url: '/Calendar/me' },
        },
      },
    ]);

    // A change to the rows (the liveQuery) and explicit re-plans show nothing again.
    await mutate(db, 'event.update', { id: event, title: 'Dentist (bring card)' }, offline);
    await settle();
    await vi.advanceTimersByTimeAsync(MIN);
    await settle();
    expect(shown).toHaveLength(1);

    // A reload: a new scheduler on the same database remembers the shown key.
    scheduler!.dispose();
    db.close();
    db = open();
    start();
    await settle();
    expect(shown).toHaveLength(1);
    expect((await db.meta.get(SHOWN_KEY))?.value).toEqual([`${event}@2026-03-15T12:10:00.000Z`]);
  });

  it('reminds each occurrence of a series once, skips completed tasks, and follows changed rows', async () => {
    const occurrences = [15, 16].map((day) => ({
      id: uuid(),
      title: 'Gym',
      description: null,
      starts_at: `2026-03-${day}T18:00:00.000Z`,
      ends_at: `2026-03-${day}T19:00:00.000Z`,
    }));
    await mutate(
      db,
      'series.create',
      { series_id: uuid(), rule: 'daily', until: '2026-03-16T23:59:00.000Z', occurrences, reminder_minutes: 60 },
      offline,
    );
    const task = uuid();
    await mutate(
      db,
      'event.create',
      { id: task, title: 'Pay rent', starts_at: '2026-03-15T13:00:00.000Z', ends_at: null, is_task: true },
      offline,
    );
    start();
    await settle();
    // Set after the scheduler started: the liveQuery re-plans.
    await mutate(db, 'event.update', { id: task, reminder_minutes: 15 }, offline);
    await mutate(db, 'task.set_completed', { id: task, value: true }, offline);
    await settle();

    // To each due time (17:00 UTC, an hour before), then a day past the last.
    for (const hours of [5, 24, 24]) {
      await vi.advanceTimersByTimeAsync(hours * 60 * MIN);
      await settle();
    }
    expect(shown.map((n) => [n.options.tag, n.options.body])).toEqual([
      [`${occurrences[0]!.id}@2026-03-15T18:00:00.000Z`, 'Starts today at 19:00'],
      [`${occurrences[1]!.id}@2026-03-16T18:00:00.000Z`, 'Starts today at 19:00'],
    ]);
  });

  it('re-plans when the rows change (a liveQuery), with no other call', async () => {
    start();
    await settle();
    const event = uuid();
    await mutate(db, 'event.create', eventArgs(event, 'Call', '2026-03-15T12:20:00.000Z', 15), offline);
    // The liveQuery's plan sets the timer for 12:05 (without it, the next look is in an hour).
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(0);
    }
    await vi.advanceTimersByTimeAsync(5 * MIN);
    await vi.waitFor(() => expect(shown.map((n) => n.options.tag)).toEqual([`${event}@2026-03-15T12:20:00.000Z`]));
  });

  it('shows an occurrence once when two tabs plan it together', async () => {
    await mutate(db, 'event.create', eventArgs(uuid(), 'Call', '2026-03-15T12:03:00.000Z', 5), offline);
    const other = open();
    const first = start();
    const second = startReminderScheduler({ db: other, show: async (n) => void shown.push(n), allowed: () => true });
    await Promise.all([first.plan(), second.plan(), first.plan(), second.plan()]);
    second.dispose();
    other.close();
    expect(shown).toHaveLength(1);
  });

  it('claims nothing while notifications are not allowed', async () => {
    await mutate(db, 'event.create', eventArgs(uuid(), 'Call', '2026-03-15T12:01:00.000Z', 5), offline);
    start(false);
    await settle();
    expect(shown).toEqual([]);
    expect(await db.meta.get(SHOWN_KEY)).toBeUndefined();
  });
});
