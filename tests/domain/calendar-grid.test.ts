/** The calendar's grid: times of day, priorities, items by day, the month and its weeks. */
import { describe, expect, it } from 'vitest';
import { itemsByDay, monthGrid, priorityOf, timeOfDay, weekDays } from '../../src/domain/calendar-classify.ts';
import { inAnotherMachineZone } from '../support/machine-zone.ts';
import { event, ids, task, tomorrowMidnight, zone } from './calendar-items.ts';

// The process in Los Angeles, the user in Auckland (calendar-items.ts says why).
inAnotherMachineZone('America/Los_Angeles');

describe('timeOfDay and priorityOf', () => {
  it('gives the 24h time in the user zone', () => {
    expect(timeOfDay('2026-11-24T01:00:00.000Z', zone)).toBe('14:00');
    expect(timeOfDay('2026-11-23T11:05:00.000Z', zone)).toBe('00:05');
    expect(timeOfDay('2026-11-24T01:00:00.000Z', 'not/a-zone')).toBe('01:00');
    expect(timeOfDay('nonsense', zone)).toBe('');
  });

  it('counts a priority outside low, medium and high as medium', () => {
    expect(priorityOf({ priority: 'high' })).toBe('high');
    expect(priorityOf({ priority: 'low' })).toBe('low');
    expect(priorityOf({ priority: 'urgent' })).toBe('medium');
    expect(priorityOf({ priority: null })).toBe('medium');
  });
});

describe('itemsByDay', () => {
  it('places items on their local start day, by start, with every day of the range a key', () => {
    const evening = event('2026-11-24T07:00:00.000Z', '2026-11-24T08:00:00.000Z'); // 24 Nov 20:00 Auckland
    const morning = task('2026-11-23T20:00:00.000Z'); // 24 Nov 09:00 Auckland (23 Nov in UTC)
    const undated = task(null);
    const outside = event('2026-11-30T00:00:00.000Z');
    const byDay = itemsByDay([evening, undated, morning, outside], '2026-11-23', '2026-11-25', zone);
    expect([...byDay.keys()]).toEqual(['2026-11-23', '2026-11-24', '2026-11-25']);
    expect(ids(byDay.get('2026-11-24') ?? [])).toEqual(ids([morning, evening]));
    expect(byDay.get('2026-11-23')).toEqual([]);
    expect([...byDay.values()].flat()).not.toContain(undated);
  });

  it('puts an event running over several days on each day it covers, within the range', () => {
    // Auckland 22 Nov 20:00 to 26 Nov 10:00.
    const conference = event('2026-11-22T07:00:00.000Z', '2026-11-25T21:00:00.000Z');
    const later = event('2026-11-24T00:00:00.000Z'); // 24 Nov 13:00
    const byDay = itemsByDay([later, conference], '2026-11-23', '2026-11-28', zone);
    expect(ids(byDay.get('2026-11-23') ?? [])).toEqual(ids([conference]));
    expect(ids(byDay.get('2026-11-24') ?? [])).toEqual(ids([conference, later]));
    expect(ids(byDay.get('2026-11-26') ?? [])).toEqual(ids([conference]));
    expect(byDay.get('2026-11-27')).toEqual([]);
    expect(byDay.has('2026-11-22')).toBe(false);
  });

  it('does not carry an event ending at midnight into the next day', () => {
    const toMidnight = event('2026-11-24T09:00:00.000Z', tomorrowMidnight); // 22:00-00:00 on 24 Nov
    const byDay = itemsByDay([toMidnight], '2026-11-24', '2026-11-25', zone);
    expect(ids(byDay.get('2026-11-24') ?? [])).toEqual(ids([toMidnight]));
    expect(byDay.get('2026-11-25')).toEqual([]);
  });

  it('places items by local midnights across a daylight-saving change (a 23-hour day in Berlin)', () => {
    // Berlin moves to summer time on 29 March 2026: that day runs 23:00 UTC (28th) to 22:00 UTC (29th).
    const lastOn28 = event('2026-03-28T22:59:00.000Z'); // 28 Mar 23:59 CET
    const firstOn29 = event('2026-03-28T23:00:00.000Z'); // 29 Mar 00:00 CET
    const lastOn29 = event('2026-03-29T21:59:00.000Z'); // 29 Mar 23:59 CEST
    const firstOn30 = event('2026-03-29T22:00:00.000Z'); // 30 Mar 00:00 CEST
    const all = [firstOn30, lastOn29, firstOn29, lastOn28];
    const byDay = itemsByDay(all, '2026-03-28', '2026-03-30', 'Europe/Berlin');
    expect(ids(byDay.get('2026-03-28') ?? [])).toEqual(ids([lastOn28]));
    expect(ids(byDay.get('2026-03-29') ?? [])).toEqual(ids([firstOn29, lastOn29]));
    expect(ids(byDay.get('2026-03-30') ?? [])).toEqual(ids([firstOn30]));
  });

  it('gives an empty map for a range that is not one', () => {
    expect(itemsByDay([task('2026-11-24T00:00:00.000Z')], 'Nov', '2026-11-25', zone).size).toBe(0);
    expect(itemsByDay([], '2026-11-26', '2026-11-25', zone).size).toBe(0);
  });
});

describe('monthGrid and weekDays (Monday first)', () => {
  it('gives 42 days from the Monday on or before the 1st', () => {
    const november = monthGrid('2026-11'); // 1 Nov 2026 is a Sunday
    expect(november).toHaveLength(42);
    expect(november[0]).toBe('2026-10-26');
    expect(november[6]).toBe('2026-11-01');
    expect(november.at(-1)).toBe('2026-12-06');
    expect(monthGrid('2027-02')[0]).toBe('2027-02-01'); // starts on a Monday
    expect(monthGrid('2027-02').at(-1)).toBe('2027-03-14');
  });

  it('gives no days for a month that is not one', () => {
    expect(monthGrid('2026-13')).toEqual([]);
    expect(monthGrid('2026-1')).toEqual([]);
    expect(monthGrid('')).toEqual([]);
  });

  it('gives Monday to Sunday of the ISO week containing the day', () => {
    const week = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'];
    expect(weekDays('2026-11-23')).toEqual(week);
    expect(weekDays('2026-11-29')).toEqual(week);
    expect(weekDays('2027-01-01')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
    expect(weekDays('2026-02-30')).toEqual([]);
  });
});
