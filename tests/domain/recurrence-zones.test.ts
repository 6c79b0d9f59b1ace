/** Series across time zones: daylight saving and the instants of each occurrence. */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { expandSeries } from '../../src/domain/recurrence.ts';
import { inAnotherMachineZone } from '../support/machine-zone.ts';
import { lengths, occurrencesOf, wallClock } from './recurrence-helpers.ts';

inAnotherMachineZone();

describe('daylight saving: the wall-clock time is kept, the UTC instant moves', () => {
  const weeklyAt9 = (timeZone: string, startLocal: string, until: string) =>
    occurrencesOf(
      expandSeries({
        rule: 'weekly',
        start: Temporal.ZonedDateTime.from(`${startLocal}T09:00[${timeZone}]`).toInstant().toString(),
        end: null,
        until,
        timeZone,
      }),
    ).map((o) => wallClock(o.starts_at, 'UTC') + ' = ' + wallClock(o.starts_at, timeZone));

  it('Europe/Berlin, last Sunday of March (2026-03-29)', () => {
    expect(weeklyAt9('Europe/Berlin', '2026-03-22', '2026-04-05')).toEqual([
      '2026-03-22T08:00+00:00 = 2026-03-22T09:00+01:00',
      '2026-03-29T07:00+00:00 = 2026-03-29T09:00+02:00',
      '2026-04-05T07:00+00:00 = 2026-04-05T09:00+02:00',
    ]);
  });

  it('Europe/Berlin, last Sunday of October (2026-10-25)', () => {
    expect(weeklyAt9('Europe/Berlin', '2026-10-18', '2026-11-01')).toEqual([
      '2026-10-18T07:00+00:00 = 2026-10-18T09:00+02:00',
      '2026-10-25T08:00+00:00 = 2026-10-25T09:00+01:00',
      '2026-11-01T08:00+00:00 = 2026-11-01T09:00+01:00',
    ]);
  });

  it('America/New_York, second Sunday of March (2026-03-08)', () => {
    expect(weeklyAt9('America/New_York', '2026-03-01', '2026-03-15')).toEqual([
      '2026-03-01T14:00+00:00 = 2026-03-01T09:00-05:00',
      '2026-03-08T13:00+00:00 = 2026-03-08T09:00-04:00',
      '2026-03-15T13:00+00:00 = 2026-03-15T09:00-04:00',
    ]);
  });

  it('America/New_York, first Sunday of November (2026-11-01)', () => {
    expect(weeklyAt9('America/New_York', '2026-10-25', '2026-11-08')).toEqual([
      '2026-10-25T13:00+00:00 = 2026-10-25T09:00-04:00',
      '2026-11-01T14:00+00:00 = 2026-11-01T09:00-05:00',
      '2026-11-08T14:00+00:00 = 2026-11-08T09:00-05:00',
    ]);
  });

  it('keeps the exact duration across the change, so the end moves with the start', () => {
    // 09:00-10:30 weekly: 90 minutes each time, ending 10:30 local before and after.
    const meeting = occurrencesOf(
      expandSeries({
        rule: 'weekly',
        start: '2026-03-22T08:00:00.000Z',
        end: '2026-03-22T09:30:00.000Z',
        until: '2026-04-05',
        timeZone: 'Europe/Berlin',
      }),
    );
    expect(lengths(meeting)).toEqual([5_400_000, 5_400_000, 5_400_000]);
    expect(meeting.map((o) => wallClock(o.ends_at as string, 'Europe/Berlin'))).toEqual([
      '2026-03-22T10:30+01:00',
      '2026-03-29T10:30+02:00',
      '2026-04-05T10:30+02:00',
    ]);
    // 01:00-04:00 daily: on the night clocks go forward the 3 hours end at 05:00 local.
    const night = occurrencesOf(
      expandSeries({
        rule: 'daily',
        start: '2026-03-28T00:00:00.000Z',
        end: '2026-03-28T03:00:00.000Z',
        until: '2026-03-30',
        timeZone: 'Europe/Berlin',
      }),
    );
    expect(lengths(night)).toEqual([10_800_000, 10_800_000, 10_800_000]);
    expect(night.map((o) => wallClock(o.ends_at as string, 'Europe/Berlin'))).toEqual([
      '2026-03-28T04:00+01:00',
      '2026-03-29T05:00+02:00',
      '2026-03-30T04:00+02:00',
    ]);
  });

  it('moves a wall-clock time in the spring-forward gap forward by the gap, that day only', () => {
    // 02:30 does not exist in Berlin on 2026-03-29: that occurrence is at 03:30 CEST.
    const berlin = occurrencesOf(
      expandSeries({
        rule: 'daily',
        start: '2026-03-28T01:30:00.000Z',
        end: null,
        until: '2026-03-30',
        timeZone: 'Europe/Berlin',
      }),
    );
    expect(berlin.map((o) => wallClock(o.starts_at, 'Europe/Berlin'))).toEqual([
      '2026-03-28T02:30+01:00',
      '2026-03-29T03:30+02:00',
      '2026-03-30T02:30+02:00',
    ]);
    // Likewise 02:30 in New York on 2026-03-08, a weekly series.
    const newYork = occurrencesOf(
      expandSeries({
        rule: 'weekly',
        start: '2026-03-01T07:30:00.000Z',
        end: null,
        until: '2026-03-15',
        timeZone: 'America/New_York',
      }),
    );
    expect(newYork.map((o) => wallClock(o.starts_at, 'America/New_York'))).toEqual([
      '2026-03-01T02:30-05:00',
      '2026-03-08T03:30-04:00',
      '2026-03-15T02:30-04:00',
    ]);
  });

  it('takes the first of a wall-clock time that happens twice', () => {
    const occurrences = occurrencesOf(
      expandSeries({
        rule: 'daily',
        start: '2026-10-24T00:30:00.000Z',
        end: null,
        until: '2026-10-26',
        timeZone: 'Europe/Berlin',
      }),
    );
    expect(occurrences.map((o) => wallClock(o.starts_at, 'Europe/Berlin'))).toEqual([
      '2026-10-24T02:30+02:00',
      '2026-10-25T02:30+02:00',
      '2026-10-26T02:30+01:00',
    ]);
  });
});

describe('occurrence instants across time-zone transitions', () => {
  // Each wall-clock time on each date worked out by Temporal alone, as one event would be.
  const byTemporal = (day: Temporal.PlainDate, time: string, zone: string) =>
    new Date(
      day.toPlainDateTime(Temporal.PlainTime.from(time)).toZonedDateTime(zone, { disambiguation: 'compatible' })
        .epochMilliseconds,
    ).toISOString();

  const cases: [zone: string, firstDay: string, time: string][] = [
    ['Europe/Berlin', '2026-01-05', '02:30'], // in the spring-forward gap, and twice in autumn
    ['America/New_York', '2026-02-27', '01:30'],
    ['Australia/Lord_Howe', '2026-01-02', '01:45'], // a 30-minute change
    ['America/Sao_Paulo', '2017-09-01', '00:15'], // changes at midnight (2017-2019)
    ['Pacific/Apia', '2011-12-20', '09:00'], // 30 Dec 2011 never happened there
    ['Asia/Kolkata', '2026-03-01', '23:59'],
    ['UTC', '2026-03-01', '12:00'],
  ];

  it.each(cases)('%s at %s: every daily and weekly occurrence is the instant Temporal gives', (zone, first, time) => {
    const start = Temporal.PlainDate.from(first);
    for (const rule of ['daily', 'weekly'] as const) {
      const until = start.add({ days: rule === 'daily' ? 800 : 1500 });
      const startInstant = byTemporal(start, time, zone);
      const got = expandSeries({ rule, start: startInstant, end: null, until: until.toString(), timeZone: zone });
      if (!got.ok) throw new Error(got.error);
      const step = rule === 'daily' ? 1 : 7;
      const days = got.occurrences.map((_, index) => start.add({ days: index * step }));
      // The days are the rule's days; a skipped local date (Apia) still has its instant (the gap rule).
      expect(got.occurrences.map((occurrence) => occurrence.starts_at)).toEqual(
        days.map((day) => byTemporal(day, time, zone)),
      );
      expect(Temporal.PlainDate.compare(days.at(-1)!, until)).toBeLessThanOrEqual(0);
      expect(Temporal.PlainDate.compare(days.at(-1)!.add({ days: step }), until)).toBeGreaterThan(0);
    }
  });
});
