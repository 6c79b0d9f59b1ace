import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expandSeries,
  SERIES_TOO_LONG,
  UNTIL_BEFORE_START,
  type Expansion,
  type OccurrenceTimes,
  type SeriesRequest,
} from '../../src/domain/recurrence.ts';
import { messages } from '../../src/domain/sync-codes.ts';
import type { RecurrenceRule } from '../../src/domain/validation.ts';

// The process runs in a zone none of the tested zones share, so an expansion that used the
// machine's zone instead of the user's would come out wrong.
const machineZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Kolkata';
});
afterAll(() => {
  process.env.TZ = machineZone;
});

function request(overrides: Partial<SeriesRequest>): SeriesRequest {
  return {
    rule: 'weekly',
    start: '2026-11-23T09:00:00.000Z',
    end: '2026-11-23T10:00:00.000Z',
    until: '2026-12-31',
    timeZone: 'UTC',
    ...overrides,
  };
}

function occurrencesOf(expansion: Expansion): OccurrenceTimes[] {
  if (!expansion.ok) throw new Error(`expected occurrences, got: ${expansion.error}`);
  return expansion.occurrences;
}

const zoned = (instant: string, zone: string) => Temporal.Instant.from(instant).toZonedDateTimeISO(zone);
/** 'YYYY-MM-DDTHH:mm±hh:mm' of an instant in a zone: the wall clock and the offset it had. */
const wallClock = (instant: string, zone: string) => {
  const at = zoned(instant, zone);
  return `${at.toPlainDate().toString()}T${at.toPlainTime().toString({ smallestUnit: 'minute' })}${at.offset}`;
};
const starts = (occurrences: OccurrenceTimes[]) => occurrences.map((o) => o.starts_at);
const lengths = (occurrences: OccurrenceTimes[]) =>
  occurrences.map((o) => (o.ends_at === null ? null : Date.parse(o.ends_at) - Date.parse(o.starts_at)));

describe('steps (docs/product.md, Calendar: daily 1 day, weekly 7 days, monthly 1 calendar month)', () => {
  it('repeats daily, weekly and monthly from the start until the until-date inclusive', () => {
    const base = { start: '2026-01-10T09:00:00.000Z', end: null, timeZone: 'UTC' };
    const expand = (rule: RecurrenceRule, until: string) =>
      starts(occurrencesOf(expandSeries({ ...base, rule, until })));
    expect(expand('daily', '2026-01-12')).toEqual([
      '2026-01-10T09:00:00.000Z',
      '2026-01-11T09:00:00.000Z',
      '2026-01-12T09:00:00.000Z',
    ]);
    expect(expand('weekly', '2026-01-31')).toEqual([
      '2026-01-10T09:00:00.000Z',
      '2026-01-17T09:00:00.000Z',
      '2026-01-24T09:00:00.000Z',
      '2026-01-31T09:00:00.000Z',
    ]);
    expect(expand('monthly', '2026-04-09')).toEqual([
      '2026-01-10T09:00:00.000Z',
      '2026-02-10T09:00:00.000Z',
      '2026-03-10T09:00:00.000Z',
    ]);
  });

  it('gives one occurrence when the until-date is the start date', () => {
    const occurrences = occurrencesOf(expandSeries(request({ rule: 'daily', until: '2026-11-23' })));
    expect(occurrences).toEqual([{ starts_at: '2026-11-23T09:00:00.000Z', ends_at: '2026-11-23T10:00:00.000Z' }]);
  });

  it('compares the until-date with the local start date, in the user zone', () => {
    // 23:30 UTC on 23 Nov is already 24 Nov 12:30 in Auckland.
    const late = request({ rule: 'daily', start: '2026-11-23T23:30:00.000Z', end: null, timeZone: 'Pacific/Auckland' });
    expect(expandSeries({ ...late, until: '2026-11-23' })).toEqual({ ok: false, error: UNTIL_BEFORE_START });
    // Until 25 Nov there: the last occurrence is on 25 Nov in Auckland, still 24 Nov in UTC.
    expect(starts(occurrencesOf(expandSeries({ ...late, until: '2026-11-25' })))).toEqual([
      '2026-11-23T23:30:00.000Z',
      '2026-11-24T23:30:00.000Z',
    ]);
  });

  it('writes instants in toISOString form whatever form the start came in', () => {
    const occurrences = occurrencesOf(
      expandSeries(request({ start: '2026-11-23T10:00:00+01:00', end: '2026-11-23T11:30+01:00', until: '2026-11-30' })),
    );
    expect(occurrences).toEqual([
      { starts_at: '2026-11-23T09:00:00.000Z', ends_at: '2026-11-23T10:30:00.000Z' },
      { starts_at: '2026-11-30T09:00:00.000Z', ends_at: '2026-11-30T10:30:00.000Z' },
    ]);
  });
});

describe('monthly on the 29th to 31st: clamped to the month end, never drifting', () => {
  it('runs Jan 31 through a leap February: 31, 29, 31, 30, 31', () => {
    const occurrences = occurrencesOf(
      expandSeries(request({ rule: 'monthly', start: '2028-01-31T09:00:00.000Z', end: null, until: '2028-05-31' })),
    );
    expect(starts(occurrences)).toEqual([
      '2028-01-31T09:00:00.000Z',
      '2028-02-29T09:00:00.000Z',
      '2028-03-31T09:00:00.000Z',
      '2028-04-30T09:00:00.000Z',
      '2028-05-31T09:00:00.000Z',
    ]);
  });

  it('runs Jan 31 through a non-leap February: 31, 28, 31, 30', () => {
    const occurrences = occurrencesOf(
      expandSeries(request({ rule: 'monthly', start: '2027-01-31T09:00:00.000Z', end: null, until: '2027-04-30' })),
    );
    expect(starts(occurrences)).toEqual([
      '2027-01-31T09:00:00.000Z',
      '2027-02-28T09:00:00.000Z',
      '2027-03-31T09:00:00.000Z',
      '2027-04-30T09:00:00.000Z',
    ]);
  });

  it('puts every occurrence on start + n months for each start day, over two years', () => {
    for (const day of [1, 15, 28, 29, 30, 31]) {
      const first = Temporal.PlainDate.from({ year: 2027, month: 1, day });
      const start = `${first.toString()}T18:45:00.000Z`;
      const dates = starts(
        occurrencesOf(expandSeries(request({ rule: 'monthly', start, end: null, until: '2028-12-31' }))),
      );
      const expected = Array.from({ length: 24 }, (_, n) => first.add({ months: n }).toString());
      expect(dates.map((instant) => instant.slice(0, 10))).toEqual(expected);
    }
  });
});

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

describe('series size (at most 1,000 occurrences)', () => {
  const daily = { rule: 'daily' as const, start: '2026-01-01T09:00:00.000Z', end: null, timeZone: 'UTC' };

  it('accepts exactly 1,000 occurrences', () => {
    const lastDay = Temporal.PlainDate.from('2026-01-01').add({ days: 999 }).toString();
    const occurrences = occurrencesOf(expandSeries({ ...daily, until: lastDay }));
    expect(occurrences).toHaveLength(1000);
    expect(occurrences.at(-1)?.starts_at).toBe(`${lastDay}T09:00:00.000Z`);
  });

  it('refuses 1,001 occurrences with the message', () => {
    const lastDay = Temporal.PlainDate.from('2026-01-01').add({ days: 1000 }).toString();
    expect(expandSeries({ ...daily, until: lastDay })).toEqual({ ok: false, error: SERIES_TOO_LONG });
    expect(SERIES_TOO_LONG).toBe('A series can have at most 1,000 occurrences. Choose an earlier repeat-until date.');
  });

  it('refuses the farthest until-date there is (year 9999)', () => {
    expect(expandSeries({ ...daily, until: '9999-12-31' })).toEqual({ ok: false, error: SERIES_TOO_LONG });
    expect(expandSeries({ ...daily, rule: 'monthly', until: '9999-12-31' })).toEqual({
      ok: false,
      error: SERIES_TOO_LONG,
    });
  });
});

describe('refusals', () => {
  it('refuses an until-date before the start date', () => {
    expect(expandSeries(request({ until: '2026-11-22' }))).toEqual({ ok: false, error: UNTIL_BEFORE_START });
    expect(UNTIL_BEFORE_START).toBe('The repeat-until date cannot be before the start.');
  });

  it('refuses a missing until-date', () => {
    expect(expandSeries(request({ until: '' }))).toEqual({ ok: false, error: messages.seriesUntil });
    expect(expandSeries(request({ until: '  ' }))).toEqual({ ok: false, error: messages.seriesUntil });
  });

  it('refuses a rule that is not daily, weekly or monthly', () => {
    for (const rule of ['none', 'yearly', 'DAILY']) {
      expect(expandSeries(request({ rule: rule as RecurrenceRule }))).toEqual({
        ok: false,
        error: messages.seriesRule,
      });
    }
  });

  it('refuses a start, end or until-date that does not parse', () => {
    const invalid = { ok: false, error: messages.invalidDate };
    expect(expandSeries(request({ start: 'someday' }))).toEqual(invalid);
    expect(expandSeries(request({ end: 'later' }))).toEqual(invalid);
    for (const until of ['2026-02-30', '31/12/2026', '2026-12-31T00:00', 'soon']) {
      expect(expandSeries(request({ until }))).toEqual(invalid);
    }
  });

  it('refuses an end before the start', () => {
    expect(expandSeries(request({ end: '2026-11-23T08:59:00.000Z' }))).toEqual({
      ok: false,
      error: messages.eventRange,
    });
  });

  it('expands in UTC when the zone is unknown', () => {
    const occurrences = occurrencesOf(expandSeries(request({ timeZone: 'Atlantis/Capital', until: '2026-11-30' })));
    expect(starts(occurrences)).toEqual(['2026-11-23T09:00:00.000Z', '2026-11-30T09:00:00.000Z']);
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
