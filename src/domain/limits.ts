/** Plan limits as the client checks them (spec 6 and 9, design 4.3). */
import { Temporal } from 'temporal-polyfill';
import { FREE_LIMITS, type Tier } from './plans.ts';

/** The start of the calendar month containing `now`, in `timeZone` (UTC when unknown). */
export function monthStart(now: Date, timeZone: string): Date {
  let zone = timeZone;
  try {
    Temporal.Now.zonedDateTimeISO(zone);
  } catch {
    zone = 'UTC';
  }
  const zoned = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(zone);
  const start = zoned.with({ day: 1 }).startOfDay();
  return new Date(start.epochMilliseconds);
}

/** Whether `created` counts towards the month containing `now` in `timeZone`. */
export function isThisMonth(created: string, now: Date, timeZone: string): boolean {
  const time = Date.parse(created);
  return !Number.isNaN(time) && time >= monthStart(now, timeZone).getTime();
}

export function isFree(tier: Tier): boolean {
  return tier === 'free';
}

/** Whether one more may be created, given how many there are, under `tier`. */
export function underLimit(tier: Tier, limit: keyof typeof FREE_LIMITS, count: number): boolean {
  return tier !== 'free' || count < FREE_LIMITS[limit];
}
