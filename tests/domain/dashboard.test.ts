import { describe, expect, it } from 'vitest';
import type { CalendarItem } from '../../src/domain/calendar-classify.ts';
import { dashboardStats, freeUsage, nearLimit, todaysFocus, upgradeBannerUsages } from '../../src/domain/dashboard.ts';

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

describe("Today's Focus", () => {
  const lists = (over: Partial<Parameters<typeof todaysFocus<CalendarItem>>[0]>) => ({
    todayEvents: [],
    overdue: [],
    todayTasks: [],
    ...over,
  });

  it("is the calendar's today lists: events today, overdue tasks and today's tasks", () => {
    const [standup, late, due] = [makeItem({ title: 'Standup' }), makeItem({ title: 'Late' }), makeItem()];
    const focus = todaysFocus(lists({ todayEvents: [standup], overdue: [late], todayTasks: [due] }));
    expect(focus).toEqual({ events: [standup], overdue: [late], tasks: [due], empty: false });
  });

  it('is empty when nothing is today, overdue or pending', () => {
    expect(todaysFocus(lists({}))).toEqual({ events: [], overdue: [], tasks: [], empty: true });
    expect(todaysFocus(lists({ overdue: [makeItem()] })).empty).toBe(false);
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
