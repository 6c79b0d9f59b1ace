/** The calendar tests' items and clock: a user in Auckland, the process in Los Angeles. */
import type { CalendarItem } from '../../src/domain/calendar-classify.ts';

// The user is in Auckland (UTC+13 in November); the process runs in Los Angeles. At `now` it is
// 24 Nov, 10:00 in Auckland but still 23 Nov in UTC and in Los Angeles, so a rule that took
// 'today' from the machine or from UTC would put items on the wrong day.
export const zone = 'Pacific/Auckland';
export const now = new Date('2026-11-23T21:00:00.000Z'); // Auckland 2026-11-24 10:00
export const todayMidnight = '2026-11-23T11:00:00.000Z'; // Auckland 2026-11-24 00:00
export const tomorrowMidnight = '2026-11-24T11:00:00.000Z'; // Auckland 2026-11-25 00:00

let nextId = 0;
export function makeItem(overrides: Partial<CalendarItem> = {}): CalendarItem {
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
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    series_id: null,
    ...overrides,
  };
}

export const event = (starts_at: string, ends_at: string | null = null, overrides: Partial<CalendarItem> = {}) =>
  makeItem({ starts_at, ends_at, ...overrides });
export const task = (starts_at: string | null, overrides: Partial<CalendarItem> = {}) =>
  makeItem({ starts_at, ends_at: starts_at, is_task: true, priority: 'medium', ...overrides });
export const ids = (list: readonly CalendarItem[]) => list.map((item) => item.id);
export const plusMinutes = (instant: string, minutes: number) =>
  new Date(Date.parse(instant) + minutes * 60_000).toISOString();
