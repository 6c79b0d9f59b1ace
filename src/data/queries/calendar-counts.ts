/**
 * The calendar's 'Upcoming Events' and past events counts without walking every event on one side
 * of now: the months after (or before) now's are summed from the counts kept per UTC month
 * (calendar-index.ts CALENDAR_MONTH_COUNTS), and only now's month is walked through its index.
 * At 10,000 events over three years that is a few hundred index entries, where counting the
 * ranges walked about 5,000 each (docs/scale.md).
 *
 * A database made before the month counts were kept has none: until they are counted once from
 * its rows (one read-write transaction, started after the first read that finds them missing),
 * the numbers come from the walks as before.
 */
import { Dexie } from 'dexie';
import { CALENDAR_MONTH_COUNTS, MONTH_COUNTS_KEPT, monthOfKey } from '../calendar-index.ts';
import { keptCounts } from '../counts.ts';
import type { LinkboardDb } from '../db.ts';
import { countKeyRange, countsOf } from '../index-counts.ts';

const TABLE = 'calendar_events';

export interface EventCounters {
  /** Events starting after `at`. */
  upcomingEvents: number;
  /** Events over (their end, or start without one) before `at`. */
  pastEvents: number;
}

function sum(counts: Map<string, number>, take: (month: string) => boolean): number {
  let total = 0;
  for (const [month, n] of counts) if (take(month)) total += n;
  return total;
}

/** Databases whose month counts are being counted (at most one pass each at a time). */
const counting = new WeakSet<LinkboardDb>();

/**
 * Counts the month counts from the rows the database holds, in one transaction with the table (no
 * write can come between the reading and the counts), unless they are kept already.
 */
export async function keepMonthCounts(db: LinkboardDb): Promise<void> {
  await db.transaction('rw', db.calendar_events, db.counts, async () => {
    if (await db.counts.get(MONTH_COUNTS_KEPT)) return;
    const table = db.calendar_events;
    // Keys only: the events' [kind, start] and their ends, as the month counts read them.
    const [starts, ends] = await Promise.all([
      table.where('[_kind+_at]').between(['e', ''], ['e', Dexie.maxKey], true, true).keys(),
      table.orderBy('_evOver').keys(),
    ]);
    const rows = [
      ...starts.map((key) => ({ _kind: 'e', _at: (key as unknown as [string, string])[1] })),
      ...ends.map((key) => ({ _evOver: key })),
    ];
    for (const { name } of CALENDAR_MONTH_COUNTS) {
      const { lower, upper } = countKeyRange(TABLE, name);
      await db.counts.where('key').between(lower, upper, true, true).delete();
    }
    await db.counts.bulkPut(countsOf(TABLE, CALENDAR_MONTH_COUNTS, rows));
    await db.counts.put({ key: MONTH_COUNTS_KEPT, n: 1 });
  });
}

/** Starts keepMonthCounts outside the caller's transaction and live query, once at a time. */
function startCounting(db: LinkboardDb): void {
  if (counting.has(db)) return;
  counting.add(db);
  setTimeout(() => {
    void keepMonthCounts(db)
      .catch((error: unknown) => {
        // Closed meanwhile (a sign-out): the next database to open counts them.
        if (!(error instanceof Dexie.DatabaseClosedError))
          console.error('Counting the calendar by month failed', error);
      })
      .finally(() => counting.delete(db));
  }, 0);
}

/**
 * 'Upcoming Events' and past events at `at` (an instant key), inside the caller's read
 * transaction on calendar_events and counts.
 */
export async function readEventCounters(db: LinkboardDb, at: string): Promise<EventCounters> {
  const table = db.calendar_events;
  const month = monthOfKey(at);
  const [kept, starts, ends, upcomingHere, pastHere] = await Promise.all([
    db.counts.get(MONTH_COUNTS_KEPT),
    keptCounts(db, TABLE, '_evAtMonth'),
    keptCounts(db, TABLE, '_evOverMonth'),
    table
      .where('[_kind+_at]')
      .between(['e', at], ['e', `${month}\uffff`], false, false)
      .count(),
    table.where('_evOver').between(month, at, true, false).count(),
  ]);
  if (kept) {
    return {
      upcomingEvents: upcomingHere + sum(starts, (other) => other > month),
      pastEvents: pastHere + sum(ends, (other) => other < month),
    };
  }
  startCounting(db);
  const [upcomingEvents, pastEvents] = await Promise.all([
    table.where('[_kind+_at]').between(['e', at], ['e', Dexie.maxKey], false, true).count(),
    table.where('_evOver').below(at).count(),
  ]);
  return { upcomingEvents, pastEvents };
}
