import { describe, expect, it } from 'vitest';
import type { CalendarItem } from '../../src/domain/calendar-classify.ts';
import {
  asDashboardItem,
  dashboardCalendar,
  dashboardStats,
  freeUsage,
  nearLimit,
  upgradeBannerUsages,
} from '../../src/domain/dashboard.ts';

// The user is in Auckland: at `now` it is 24 Nov 10:00 there, still 23 Nov in UTC. The month
// began at Auckland's 1 Nov 00:00, which is 31 Oct 11:00 UTC.
const zone = 'Pacific/Auckland';
const now = new Date('2026-11-23T21:00:00.000Z');

let nextId = 0;
function makeItem(overrides: Partial<CalendarItem> = {}): CalendarItem {
  nextId += 1;
  return {
    id: `item-${nextId}`,
    title: `Item ${nextId}`,
    description: null,
    starts_at: null,
    ends_at: null,
    is_task: false,
    priority: null,
    is_completed: false,
    created_at: '2026-11-05T00:00:00.000Z',
    updated_at: '2026-11-05T00:00:00.000Z',
    series_id: null,
    ...overrides,
  };
}

/** A record as an older client or an import may carry it: no is_task. */
const withoutKind = (overrides: Partial<CalendarItem>) => {
  const { is_task: _drop, ...rest } = makeItem(overrides);
  return rest as CalendarItem;
};

describe('the dashboard reading of a record', () => {
  it('counts a record with neither start nor end as a task (spec 3), and keeps a stated kind', () => {
    expect(asDashboardItem(withoutKind({})).is_task).toBe(true);
    expect(
      asDashboardItem(withoutKind({ starts_at: '2026-11-24T01:00:00Z', ends_at: '2026-11-24T02:00:00Z' })).is_task,
    ).toBe(false);
    expect(asDashboardItem(withoutKind({ starts_at: '2026-11-24T01:00:00Z' })).is_task).toBe(true);
    const event = makeItem({ is_task: false });
    expect(asDashboardItem(event)).toBe(event);
  });
});

describe("Today's Focus and the calendar counts", () => {
  it('groups events today, overdue tasks and today’s tasks in the user’s zone', () => {
    const later = makeItem({ title: 'Standup', starts_at: '2026-11-23T23:00:00Z', ends_at: '2026-11-23T23:30:00Z' });
    const over = makeItem({ title: 'Breakfast', starts_at: '2026-11-23T19:00:00Z', ends_at: '2026-11-23T19:30:00Z' });
    const tomorrow = makeItem({
      title: 'Tomorrow',
      starts_at: '2026-11-24T22:00:00Z',
      ends_at: '2026-11-24T23:00:00Z',
    });
    const overdue = makeItem({ title: 'Late', is_task: true, starts_at: '2026-11-22T20:00:00Z', ends_at: null });
    const dueToday = makeItem({ title: 'Due', is_task: true, starts_at: '2026-11-24T02:00:00Z' });
    const undated = withoutKind({ title: 'Someday' });
    const done = makeItem({ title: 'Done', is_task: true, is_completed: true, starts_at: '2026-11-23T20:00:00Z' });
    const { focus, events, tasksDone } = dashboardCalendar(
      [later, over, tomorrow, overdue, dueToday, undated, done],
      now,
      zone,
    );
    expect(focus.events.map((item) => item.title)).toEqual(['Standup']);
    expect(focus.overdue.map((item) => item.title)).toEqual(['Late']);
    expect(focus.tasks.map((item) => item.title)).toEqual(['Someday', 'Due']);
    expect(focus.empty).toBe(false);
    expect(events).toBe(3);
    expect(tasksDone).toBe(1);
  });

  it('is empty when nothing is today, overdue or pending', () => {
    const past = makeItem({ starts_at: '2026-11-01T00:00:00Z', ends_at: '2026-11-01T01:00:00Z' });
    const done = makeItem({ is_task: true, is_completed: true });
    const { focus } = dashboardCalendar([past, done], now, zone);
    expect(focus).toEqual({ events: [], overdue: [], tasks: [], empty: true });
  });

  it('counts events created this month in the user’s zone, not tasks', () => {
    const rows = [
      makeItem({ created_at: '2026-10-31T11:00:00Z' }), // Auckland 1 Nov 00:00: this month
      makeItem({ created_at: '2026-10-31T10:59:59Z' }), // Auckland 31 Oct: last month
      makeItem({ created_at: '2026-11-20T00:00:00Z', is_task: true }),
    ];
    expect(dashboardCalendar(rows, now, zone).eventsThisMonth).toBe(1);
  });
});

describe('the stats block', () => {
  it('labels the four stats in order', () => {
    expect(dashboardStats({ links: 4, events: 3, tasksDone: 2, pollsThisMonth: 1 })).toEqual([
      { label: 'Saved Links', value: 4 },
      { label: 'Calendar Events', value: 3 },
      { label: 'Tasks Done', value: 2 },
      { label: 'Polls This Month', value: 1 },
    ]);
  });
});

describe('the upgrade banner', () => {
  const usage = (links: number, eventsThisMonth: number, pollsThisMonth: number) =>
    freeUsage({ links, eventsThisMonth, pollsThisMonth });

  it('compares with the Free limits: 30 links, 10 events a month, votes 5', () => {
    expect(usage(22, 8, 4).map(({ kind, limit, text }) => ({ kind, limit, text }))).toEqual([
      { kind: 'links', limit: 30, text: '22/30 links' },
      { kind: 'events', limit: 10, text: '8/10 events this month' },
      { kind: 'votes', limit: 5, text: '4/5 polls this month' },
    ]);
  });

  it('is above 70 % only past it: 21 of 30, 7 of 10 and 3 of 5 are not', () => {
    expect(nearLimit({ used: 21, limit: 30 })).toBe(false);
    expect(nearLimit({ used: 22, limit: 30 })).toBe(true);
    expect(nearLimit({ used: 7, limit: 10 })).toBe(false);
    expect(nearLimit({ used: 8, limit: 10 })).toBe(true);
    expect(nearLimit({ used: 3, limit: 5 })).toBe(false);
    expect(nearLimit({ used: 4, limit: 5 })).toBe(true);
  });

  it('shows for Free users with any usage above 70 %, naming those usages', () => {
    expect(upgradeBannerUsages('free', usage(21, 7, 3), false)).toEqual([]);
    expect(upgradeBannerUsages('free', usage(0, 0, 4), false).map((u) => u.kind)).toEqual(['votes']);
    expect(upgradeBannerUsages('free', usage(30, 8, 0), false).map((u) => u.kind)).toEqual(['links', 'events']);
  });

  it('never shows to Pro or Team, nor once dismissed', () => {
    expect(upgradeBannerUsages('pro', usage(30, 10, 5), false)).toEqual([]);
    expect(upgradeBannerUsages('team', usage(30, 10, 5), false)).toEqual([]);
    expect(upgradeBannerUsages('free', usage(30, 10, 5), true)).toEqual([]);
  });
});
