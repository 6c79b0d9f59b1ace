/**
 * What the calendar's kept counts must equal (src/data/queries/calendar-counts.ts): the month
 * counts and the screen's numbers as counted from every stored row.
 */
import { expect } from 'vitest';
import { CALENDAR_MONTH_COUNTS, calendarKeys } from '../../src/data/calendar-index.ts';
import { keptCounts } from '../../src/data/counts.ts';
import type { LinkboardDb } from '../../src/data/db.ts';
import { readCalendarLists } from '../../src/data/queries/events.ts';
import { classifyCalendar } from '../../src/domain/calendar-classify.ts';

/** The month counts as counted from every row. */
async function monthTruth(db: LinkboardDb): Promise<Map<string, Map<string, number>>> {
  const truth = new Map<string, Map<string, number>>(CALENDAR_MONTH_COUNTS.map(({ name }) => [name, new Map()]));
  for (const row of await db.calendar_events.toArray()) {
    const keys = calendarKeys(row) as unknown as Record<string, unknown>;
    for (const { name, of } of CALENDAR_MONTH_COUNTS) {
      const month = of(keys);
      if (month === undefined) continue;
      const counts = truth.get(name)!;
      counts.set(month, (counts.get(month) ?? 0) + 1);
    }
  }
  return truth;
}

/** Each month count kept is the rows' (a month with none may be kept as 0). */
export async function expectMonthCounts(db: LinkboardDb): Promise<void> {
  const truth = await monthTruth(db);
  for (const { name } of CALENDAR_MONTH_COUNTS) {
    const kept = [...(await keptCounts(db, 'calendar_events', name))].filter(([, n]) => n > 0);
    expect(new Map(kept), name).toEqual(truth.get(name));
  }
}

/** The calendar's numbers read at `at` are those the rules give over every row. */
export async function expectCounters(db: LinkboardDb, at: Date, timeZone = 'UTC'): Promise<void> {
  const expected = classifyCalendar(await db.calendar_events.toArray(), at, timeZone);
  const { counts } = await readCalendarLists(db, at, timeZone);
  expect(
    {
      upcoming: counts.upcomingEvents,
      past: counts.pastEvents,
      pending: counts.pendingTasks,
      completed: counts.completedTasks,
    },
    at.toISOString(),
  ).toEqual({
    upcoming: expected.upcomingEventsCount,
    past: expected.pastEventsTotal,
    pending: expected.pendingTasksCount,
    completed: expected.completedCount,
  });
}
