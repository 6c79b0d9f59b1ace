import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { expandSeries, SERIES_TOO_LONG, UNTIL_BEFORE_START } from '../../src/domain/recurrence.ts';
import { messages } from '../../src/domain/sync-codes.ts';
import type { RecurrenceRule } from '../../src/domain/validation.ts';
import { inAnotherMachineZone } from '../support/machine-zone.ts';
import { occurrencesOf, request, starts } from './recurrence-helpers.ts';

inAnotherMachineZone();

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
