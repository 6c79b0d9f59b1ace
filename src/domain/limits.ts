/** Plan limits as the client checks them (docs/product.md, Roles and permissions; Plans and limits, docs/product.md, Plans and limits). */
import { Temporal } from 'temporal-polyfill';
import { safeTimeZone } from './event-times.ts';
import { FREE_LIMITS, type Tier } from './plans.ts';

/** The start of the calendar month containing `now`, in `timeZone` (UTC when unknown). */
export function monthStart(now: Date, timeZone: string): Date {
  const zoned = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(safeTimeZone(timeZone));
  const start = zoned.with({ day: 1 }).startOfDay();
  return new Date(start.epochMilliseconds);
}

/** The last month start asked for: a screen counts a month over every row with the same `now`. */
let lastMonthStart: { at: number; zone: string; start: number } | null = null;

function monthStartEpoch(now: Date, timeZone: string): number {
  const at = now.getTime();
  if (lastMonthStart?.at !== at || lastMonthStart.zone !== timeZone) {
    lastMonthStart = { at, zone: timeZone, start: monthStart(now, timeZone).getTime() };
  }
  return lastMonthStart.start;
}

/** Whether `created` counts towards the month containing `now` in `timeZone`. */
export function isThisMonth(created: string, now: Date, timeZone: string): boolean {
  const time = Date.parse(created);
  return !Number.isNaN(time) && time >= monthStartEpoch(now, timeZone);
}

/**
 * Whether a record counts towards the Free plan's events of the month (docs/product.md, Plans and limits): an event, not
 * a task, created this month in the user's zone. The calendar's badge, the dashboard's usage and
 * the mutators' check all count with this, as the server does.
 */
export function countsAsEventThisMonth(
  item: { is_task: boolean; created_at: string },
  now: Date,
  timeZone: string,
): boolean {
  return !item.is_task && isThisMonth(item.created_at, now, timeZone);
}

export function isFree(tier: Tier): boolean {
  return tier === 'free';
}

/** Whether one more may be created, given how many there are, under `tier`. */
export function underLimit(tier: Tier, limit: keyof typeof FREE_LIMITS, count: number): boolean {
  return tier !== 'free' || count < FREE_LIMITS[limit];
}
