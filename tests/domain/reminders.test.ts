import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  REMINDER_GRACE_MS,
  keepShown,
  planReminders,
  reminderBody,
  reminderOf,
  reminderWindow,
  type ReminderRow,
} from '../../src/domain/reminders.ts';
import { reminderChoices, reminderFromInput, reminderToInput } from '../../src/domain/reminder-choices.ts';
import { reminderOffsets } from '../../src/domain/validation.ts';

const NOW = new Date('2026-03-15T12:00:00.000Z');
const at = (iso: string) => new Date(iso);
const MIN = 60_000;

let n = 0;
function row(overrides: Partial<ReminderRow> = {}): ReminderRow {
  n += 1;
  return {
    id: `e${n}`,
    title: 'Dentist',
    starts_at: '2026-03-15T14:30:00.000Z',
    is_task: false,
    is_completed: false,
    reminder_minutes: 5,
    created_at: '2026-03-01T00:00:00.000Z',
    deleted_at: null,
    ...overrides,
  };
}

const none = new Set<string>();

describe('reminder choices', () => {
  it('offers None and every offset, and reads a select value back', () => {
    expect(reminderChoices.map((c) => c.label)).toEqual([
      'None',
      'At time of event',
      '5 minutes before',
      '15 minutes before',
      '30 minutes before',
      '1 hour before',
      '1 day before',
    ]);
    expect(reminderChoices.slice(1).map((c) => c.value)).toEqual([...reminderOffsets]);
    expect(reminderFromInput('')).toBeNull();
    expect(reminderFromInput('1440')).toBe(1440);
    expect(reminderFromInput('7')).toBeNull();
    expect(reminderToInput(null)).toBe('');
    expect(reminderToInput(0)).toBe('0');
  });
});

describe('planning reminders', () => {
  it('is due at starts_at − the offset, for every offset', () => {
    for (const minutes of reminderOffsets) {
      const reminder = reminderOf(row({ reminder_minutes: minutes }));
      expect(reminder?.dueAt).toBe(Date.parse('2026-03-15T14:30:00.000Z') - minutes * MIN);
    }
    expect(reminderOf(row({ id: 'x', reminder_minutes: 0 }))?.key).toBe('x@2026-03-15T14:30:00.000Z');
  });

  it('skips rows without a reminder, completed tasks, deleted rows and tasks made without a date', () => {
    expect(reminderOf(row({ reminder_minutes: null }))).toBeNull();
    expect(reminderOf(row({ reminder_minutes: undefined }))).toBeNull();
    expect(reminderOf(row({ is_task: true, is_completed: true }))).toBeNull();
    expect(reminderOf(row({ is_task: true }))).not.toBeNull();
    expect(reminderOf(row({ deleted_at: '2026-03-15T11:00:00Z' }))).toBeNull();
    expect(reminderOf(row({ starts_at: null }))).toBeNull();
    expect(reminderOf(row({ is_task: true, created_at: '2026-03-15T14:29:40.000Z' }))).toBeNull();
  });

  it('picks what is due now and the earliest next one; body in the user zone', () => {
    const soon = row({ starts_at: '2026-03-15T12:03:00.000Z', reminder_minutes: 5 });
    const later = row({ starts_at: '2026-03-15T14:30:00.000Z', reminder_minutes: 60 });
    const latest = row({ starts_at: '2026-03-16T14:30:00.000Z', reminder_minutes: 1440 });
    const task = row({ is_task: true, starts_at: '2026-03-15T13:00:00.000Z', reminder_minutes: 0 });
    const plan = planReminders([latest, later, soon, task], NOW, none);
    expect(plan.due.map((r) => r.eventId)).toEqual([soon.id]);
    expect(plan.next?.eventId).toBe(task.id);
    expect(reminderBody(plan.due[0]!, 'Europe/Berlin', NOW)).toBe('Starts today at 13:03');
    expect(reminderBody(plan.next!, 'UTC', NOW)).toBe('Due today at 13:00');
    expect(reminderBody(reminderOf(latest)!, 'UTC', NOW)).toBe('Starts tomorrow at 14:30');
    expect(reminderBody(reminderOf(later)!, 'UTC', new Date('2026-03-15T14:30:00.000Z'))).toBe('Starts now');
  });

  it('never plans a shown key again, and reminds a moved occurrence at its new time', () => {
    const event = row({ starts_at: '2026-03-15T12:04:00.000Z' });
    const first = planReminders([event], NOW, none);
    expect(first.due).toHaveLength(1);
    const shown = new Set([first.due[0]!.key]);
    expect(planReminders([event], NOW, shown)).toEqual({ due: [], next: null });
    const moved = { ...event, starts_at: '2026-03-15T12:02:00.000Z' };
    expect(planReminders([moved], NOW, shown).due).toHaveLength(1);
  });

  it('reminds each occurrence of a series once, under its own key', () => {
    const days = [15, 16, 17].map((d) =>
      row({ starts_at: `2026-03-${d}T12:03:00.000Z`, reminder_minutes: 5, title: 'Gym' }),
    );
    const shown = new Set<string>();
    let clock = NOW;
    const fired: string[] = [];
    for (let step = 0; step < 3 * 24 * 60; step += 1) {
      for (const r of planReminders(days, clock, shown).due) {
        shown.add(r.key);
        fired.push(r.key);
      }
      clock = new Date(clock.getTime() + MIN);
    }
    expect(fired).toEqual(days.map((d) => `${d.id}@${d.starts_at}`));
  });

  it('fires late until the start, or the grace after the due time; past ones never', () => {
    const event = row({ starts_at: '2026-03-15T12:30:00.000Z', reminder_minutes: 60 });
    expect(planReminders([event], at('2026-03-15T12:29:59.000Z'), none).due).toHaveLength(1);
    expect(planReminders([event], at('2026-03-15T12:30:00.000Z'), none).due).toHaveLength(0);
    const atTime = row({ starts_at: '2026-03-15T12:00:00.000Z', reminder_minutes: 0 });
    expect(planReminders([atTime], new Date(NOW.getTime() + REMINDER_GRACE_MS - 1), none).due).toHaveLength(1);
    expect(planReminders([atTime], new Date(NOW.getTime() + REMINDER_GRACE_MS), none).due).toHaveLength(0);
    const past = row({ starts_at: '2026-03-14T12:00:00.000Z', reminder_minutes: 1440 });
    expect(planReminders([past], NOW, none)).toEqual({ due: [], next: null });
  });

  it('reads a window of starts from a day before now to two days after', () => {
    expect(reminderWindow(NOW)).toEqual({ from: '2026-03-14T12:00:00.000Z', to: '2026-03-17T12:00:00.000Z' });
    // A day-before reminder of the window's last start is due within the window's reach.
    const edge = row({ starts_at: '2026-03-17T12:00:00.000Z', reminder_minutes: 1440 });
    expect(planReminders([edge], NOW, none).next?.dueAt).toBe(Date.parse('2026-03-16T12:00:00.000Z'));
  });

  it('keeps shown keys only while their occurrence can still be planned', () => {
    const keys = ['a@2026-03-15T11:00:00.000Z', 'b@2026-03-12T11:00:00.000Z', 'broken'];
    expect(keepShown(keys, NOW)).toEqual(['a@2026-03-15T11:00:00.000Z']);
  });
});

describe('a reminder set offline', () => {
  afterEach(() => vi.useRealTimers());

  it('fires at its time from a timer set for the next reminder', async () => {
    vi.useFakeTimers({ now: NOW });
    const event = row({ starts_at: '2026-03-15T12:10:00.000Z', reminder_minutes: 5 });
    const shown = new Set<string>();
    const fired: Array<[string, string]> = [];
    const tick = () => {
      const plan = planReminders([event], new Date(), shown);
      for (const r of plan.due) {
        shown.add(r.key);
        fired.push([r.key, new Date().toISOString()]);
      }
      if (plan.next) setTimeout(tick, plan.next.dueAt - Date.now());
    };
    tick();
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(5 * MIN - 1);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(30 * MIN);
    expect(fired).toEqual([[`${event.id}@${event.starts_at}`, '2026-03-15T12:05:00.000Z']]);
  });
});
