import { describe, expect, it } from 'vitest';
import {
  classifyCalendar,
  externalUrl,
  PAST_EVENTS_MAX,
  RECENTLY_COMPLETED_MAX,
  TODAY_EVENTS_MAX,
  upcomingLists,
} from '../../src/domain/calendar-classify.ts';
import { dueText } from '../../src/domain/calendar-texts.ts';
import { inAnotherMachineZone } from '../support/machine-zone.ts';
import { event, ids, now, plusMinutes, task, todayMidnight, tomorrowMidnight, zone } from './calendar-items.ts';

// The process in Los Angeles, the user in Auckland (calendar-items.ts says why).
inAnotherMachineZone('America/Los_Angeles');

describe("today's events (docs/product.md, Calendar: start today, end not passed, by start, at most 10)", () => {
  it("takes events starting on the user's today whose end (or start) is not before now", () => {
    const ongoing = event('2026-11-23T20:00:00.000Z', '2026-11-23T22:00:00.000Z'); // 09:00-11:00
    const later = event('2026-11-24T02:00:00.000Z'); // 15:00, no end
    const endsNow = event('2026-11-23T20:30:00.000Z', now.toISOString()); // ends this very moment
    const over = event('2026-11-23T19:00:00.000Z', '2026-11-23T20:00:00.000Z'); // 08:00-09:00
    const startedNoEnd = event('2026-11-23T20:59:00.000Z'); // 09:59, no end: over
    const tomorrow = event(tomorrowMidnight);
    const aTask = task('2026-11-24T02:00:00.000Z');
    const { todayEvents } = classifyCalendar([later, over, ongoing, tomorrow, aTask, startedNoEnd, endsNow], now, zone);
    expect(ids(todayEvents)).toEqual(ids([ongoing, endsNow, later]));
  });

  it("uses the user's day, not UTC's or the machine's", () => {
    // Today in UTC (23 Nov) and still running, but 23 Nov 23:00 in Auckland: yesterday there.
    const yesterdayThere = event('2026-11-23T10:00:00.000Z', '2026-11-23T23:00:00.000Z');
    // 24 Nov in UTC (tomorrow there), but 18:00 today in Auckland.
    const todayThere = event('2026-11-24T05:00:00.000Z');
    expect(ids(classifyCalendar([yesterdayThere, todayThere], now, zone).todayEvents)).toEqual(ids([todayThere]));
    expect(ids(classifyCalendar([yesterdayThere, todayThere], now, 'UTC').todayEvents)).toEqual(ids([yesterdayThere]));
  });

  it('keeps the first 10 by start', () => {
    const events = Array.from({ length: 12 }, (_, n) => event(plusMinutes('2026-11-23T22:00:00.000Z', 10 * (11 - n))));
    const { todayEvents } = classifyCalendar(events, now, zone);
    expect(todayEvents).toHaveLength(TODAY_EVENTS_MAX);
    expect(ids(todayEvents)).toEqual(ids([...events].reverse().slice(0, 10)));
  });
});

describe('overdue and today’s tasks (docs/product.md, Calendar)', () => {
  it("puts pending tasks due before the user's midnight in overdue, oldest first", () => {
    const lastNight = task(plusMinutes(todayMidnight, -1)); // 23:59 yesterday in Auckland; today in UTC
    const lastWeek = task('2026-11-17T01:00:00.000Z');
    const atMidnight = task(todayMidnight);
    const doneLate = task('2026-11-20T01:00:00.000Z', { is_completed: true });
    const result = classifyCalendar([lastNight, atMidnight, doneLate, lastWeek], now, zone);
    expect(ids(result.overdue)).toEqual(ids([lastWeek, lastNight]));
    expect(ids(result.todayTasks)).toEqual(ids([atMidnight]));
    // In UTC, 23 Nov 10:59 is today: the same task is not overdue there.
    expect(ids(classifyCalendar([lastNight], now, 'UTC').overdue)).toEqual([]);
  });

  it('lists pending tasks due today or undated: undated first by creation, then by due time', () => {
    const dueLate = task(plusMinutes(tomorrowMidnight, -1)); // 23:59 today
    const dueEarly = task('2026-11-23T19:00:00.000Z'); // 08:00 today, already passed: still today's
    const undatedNew = task(null, { created_at: '2026-11-22T00:00:00.000Z' });
    const undatedOld = task(null, { created_at: '2026-11-20T00:00:00.000Z' });
    const dueTomorrow = task(tomorrowMidnight);
    const doneToday = task('2026-11-23T23:00:00.000Z', { is_completed: true });
    const anEvent = event('2026-11-23T23:00:00.000Z', '2026-11-24T00:00:00.000Z');
    const { todayTasks } = classifyCalendar(
      [dueLate, undatedNew, dueTomorrow, dueEarly, doneToday, undatedOld, anEvent],
      now,
      zone,
    );
    expect(ids(todayTasks)).toEqual(ids([undatedOld, undatedNew, dueEarly, dueLate]));
  });

  it('orders tasks due at the same time by creation', () => {
    const second = task('2026-11-23T23:00:00.000Z', { created_at: '2026-11-02T00:00:00.000Z' });
    const first = task('2026-11-23T23:00:00.000Z', { created_at: '2026-11-01T00:00:00.000Z' });
    expect(ids(classifyCalendar([second, first], now, zone).todayTasks)).toEqual(ids([first, second]));
  });

  it('treats a due date that does not parse as no date, so the task is not lost', () => {
    const odd = task('someday');
    expect(ids(classifyCalendar([odd], now, zone).todayTasks)).toEqual(ids([odd]));
  });
});

describe('recently completed, past events and the counters', () => {
  it('lists completed tasks, most recently updated first, at most 15', () => {
    const done = Array.from({ length: 17 }, (_, n) =>
      task('2026-11-01T00:00:00.000Z', { is_completed: true, updated_at: plusMinutes('2026-11-20T00:00:00.000Z', n) }),
    );
    const { recentlyCompleted, completedCount } = classifyCalendar([...done, task(null)], now, zone);
    expect(recentlyCompleted).toHaveLength(RECENTLY_COMPLETED_MAX);
    expect(ids(recentlyCompleted)).toEqual(ids([...done].reverse().slice(0, 15)));
    expect(completedCount).toBe(17);
  });

  it('lists events over before now, most recent first, the first 15 of the total', () => {
    const past = Array.from({ length: 17 }, (_, n) => event(plusMinutes('2026-11-01T00:00:00.000Z', 60 * n)));
    const endedJustNow = event('2026-11-23T19:00:00.000Z', plusMinutes(now.toISOString(), -1));
    const stillRunning = event('2026-11-23T19:00:00.000Z', plusMinutes(now.toISOString(), 1));
    const { pastEvents, pastEventsTotal } = classifyCalendar([...past, endedJustNow, stillRunning], now, zone);
    expect(pastEventsTotal).toBe(18);
    expect(pastEvents).toHaveLength(PAST_EVENTS_MAX);
    expect(ids(pastEvents)).toEqual(ids([endedJustNow, ...[...past].reverse()].slice(0, 15)));
  });

  it('counts upcoming events (start after now), pending and completed tasks of any date', () => {
    const items = [
      event(plusMinutes(now.toISOString(), 1)),
      event('2027-01-01T00:00:00.000Z'),
      event(now.toISOString()), // starting this moment: not upcoming
      event('2026-11-01T00:00:00.000Z'),
      task('2027-01-01T00:00:00.000Z'),
      task('2026-01-01T00:00:00.000Z'),
      task(null),
      task(null, { is_completed: true }),
    ];
    expect(classifyCalendar(items, now, zone)).toMatchObject({
      upcomingEventsCount: 2,
      pendingTasksCount: 3,
      completedCount: 1,
    });
  });

  it('reads records as docs/product.md, Records says: the aliases of start and end', () => {
    const legacy = { ...event(''), starts_at: null, start_date: '2026-11-23T23:00:00.000Z' };
    expect(ids(classifyCalendar([legacy], now, zone).todayEvents)).toEqual(ids([legacy]));
  });
});

describe('upcoming lists (docs/product.md, Upcoming: from the start of tomorrow, user zone)', () => {
  it('lists events and pending tasks dated from tomorrow on, by start', () => {
    const lateToday = event(plusMinutes(tomorrowMidnight, -1)); // 23:59 today in Auckland; tomorrow in UTC
    const atMidnight = event(tomorrowMidnight);
    const nextYear = event('2027-01-05T00:00:00.000Z');
    const taskLater = task('2026-12-01T00:00:00.000Z');
    const taskSooner = task('2026-11-26T00:00:00.000Z');
    const doneLater = task('2026-12-02T00:00:00.000Z', { is_completed: true });
    const undated = task(null);
    const { futureEvents, pendingTasks } = upcomingLists(
      [nextYear, taskLater, lateToday, undated, doneLater, atMidnight, taskSooner],
      now,
      zone,
    );
    expect(ids(futureEvents)).toEqual(ids([atMidnight, nextYear]));
    expect(ids(pendingTasks)).toEqual(ids([taskSooner, taskLater]));
    // In UTC, tomorrow starts at 24 Nov 00:00Z: the late-today event is upcoming there.
    expect(ids(upcomingLists([lateToday], now, 'UTC').futureEvents)).toEqual(ids([lateToday]));
  });
});

describe('dueText (docs/product.md, Calendar)', () => {
  it("reads 'Due: Today' for an undated task or one due within 60 s of its creation", () => {
    expect(dueText(task(null), now, zone)).toBe('Due: Today');
    const created = '2026-11-20T03:00:00.000Z';
    expect(dueText(task(created, { created_at: created }), now, zone)).toBe('Due: Today');
    expect(dueText(task(plusMinutes(created, 1), { created_at: created }), now, zone)).toBe('Due: Today');
    expect(dueText(task(plusMinutes(created, -1), { created_at: created }), now, zone)).toBe('Due: Today');
    const aMinuteAndASecond = new Date(Date.parse(created) + 61_000).toISOString();
    expect(dueText(task(aMinuteAndASecond, { created_at: created }), now, zone)).toBe('Due: 20 Nov, 16:01');
  });

  it('shows the 24h time in the user zone when due today', () => {
    expect(dueText(task('2026-11-24T01:00:00.000Z'), now, zone)).toBe('Due: 14:00');
    expect(dueText(task(todayMidnight), now, zone)).toBe('Due: 00:00');
  });

  it("shows day, month and time when due on another day: the user's day, not UTC's", () => {
    // 23 Nov 10:59 UTC is today in UTC but 23 Nov 23:59 in Auckland: yesterday there.
    expect(dueText(task('2026-11-23T10:59:00.000Z'), now, zone)).toBe('Due: 23 Nov, 23:59');
    expect(dueText(task('2026-11-23T10:59:00.000Z'), now, 'UTC')).toBe('Due: 10:59');
    // en-GB abbreviates September 'Sep' or 'Sept', by the ICU version.
    expect(dueText(task('2026-09-05T02:05:00.000Z'), now, zone)).toMatch(/^Due: 5 Sept?, 14:05$/);
    expect(dueText(task(tomorrowMidnight), now, zone)).toBe('Due: 25 Nov, 00:00');
  });
});

describe('externalUrl (docs/product.md, Calendar, docs/product.md, Decisions)', () => {
  it('gives the href of a whole-text http or https URL, trimmed', () => {
    expect(externalUrl('https://example.com/a?b=1#c')).toBe('https://example.com/a?b=1#c');
    expect(externalUrl('  http://Example.COM  ')).toBe('http://example.com/');
    expect(externalUrl('HTTPS://example.com/path')).toBe('https://example.com/path');
  });

  it('refuses other schemes, text that only contains a URL, and non-URLs', () => {
    for (const text of [
      'javascript:alert(1)',
      'JavaScript://example.com/%0Aalert(1)',
      'data:text/html,<b>x</b>',
      'ftp://example.com/file',
      'mailto:someone@example.com',
      'see https://example.com',
      'https://example.com and more',
      'example.com',
      'https://',
      'https:///path',
      'http//example.com',
      '',
      '   ',
      null,
      undefined,
    ]) {
      expect(externalUrl(text)).toBeNull();
    }
  });

  it('refuses a URL longer than 2048 characters', () => {
    expect(externalUrl(`https://example.com/${'a'.repeat(2100)}`)).toBeNull();
  });
});
