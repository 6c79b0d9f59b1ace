import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endAfterStartChange,
  fromLocalInput,
  localDate,
  safeTimeZone,
  toLocalInput,
} from '../../src/domain/event-times.ts';

// The process runs in a zone none of the tested zones share, so a result that used the machine's
// zone instead of the user's would come out wrong.
const machineZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/Los_Angeles';
});
afterAll(() => {
  process.env.TZ = machineZone;
});

describe('safeTimeZone (docs/product.md, Plans and limits: the user zone, UTC when none)', () => {
  it('keeps a known IANA zone', () => {
    expect(safeTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(safeTimeZone(' Pacific/Auckland ')).toBe('Pacific/Auckland');
  });

  it('falls back to UTC when the zone is missing, empty or unknown', () => {
    for (const zone of [null, undefined, '', '   ', 'Mars/Olympus_Mons', 'not a zone']) {
      expect(safeTimeZone(zone)).toBe('UTC');
    }
  });
});

describe('toLocalInput', () => {
  it('shows the wall-clock time in the given zone, not the machine zone', () => {
    expect(new Date('2026-11-23T09:00:00Z').getTimezoneOffset()).toBe(480); // the machine: Los Angeles
    expect(toLocalInput('2026-11-23T09:00:00.000Z', 'Pacific/Auckland')).toBe('2026-11-23T22:00');
    expect(toLocalInput(new Date('2026-11-23T09:00:00Z'), 'Europe/Berlin')).toBe('2026-11-23T10:00');
    expect(toLocalInput('2026-11-23T10:00:00+01:00', 'UTC')).toBe('2026-11-23T09:00');
  });

  it('crosses the date line: Auckland is already on the next day', () => {
    expect(toLocalInput('2026-11-23T12:30:45.000Z', 'Pacific/Auckland')).toBe('2026-11-24T01:30');
  });

  it('shows the shifted wall clock on the day clocks go forward (Europe/Berlin 2026-03-29)', () => {
    expect(toLocalInput('2026-03-29T00:59:00Z', 'Europe/Berlin')).toBe('2026-03-29T01:59');
    expect(toLocalInput('2026-03-29T01:00:00Z', 'Europe/Berlin')).toBe('2026-03-29T03:00');
  });

  it('uses UTC for an unknown zone and gives an empty value for an instant that does not parse', () => {
    expect(toLocalInput('2026-11-23T09:00:00Z', 'Nowhere/Land')).toBe('2026-11-23T09:00');
    expect(toLocalInput('soon', 'Europe/Berlin')).toBe('');
    expect(toLocalInput(new Date(Number.NaN), 'Europe/Berlin')).toBe('');
  });
});

describe('fromLocalInput', () => {
  it('reads a wall-clock value in the given zone as an ISO instant', () => {
    expect(fromLocalInput('2026-11-23T22:00', 'Pacific/Auckland')).toBe('2026-11-23T09:00:00.000Z');
    expect(fromLocalInput('2026-11-23T10:00', 'Europe/Berlin')).toBe('2026-11-23T09:00:00.000Z');
    expect(fromLocalInput('2026-07-01T10:00:30', 'Europe/Berlin')).toBe('2026-07-01T08:00:30.000Z');
  });

  it('round-trips with toLocalInput', () => {
    const value = '2026-06-15T18:45';
    const instant = fromLocalInput(value, 'America/New_York');
    expect(instant).toBe('2026-06-15T22:45:00.000Z');
    expect(toLocalInput(instant as string, 'America/New_York')).toBe(value);
  });

  it('moves a time in the spring-forward gap forward by the gap (Europe/Berlin 2026-03-29)', () => {
    expect(fromLocalInput('2026-03-29T01:30', 'Europe/Berlin')).toBe('2026-03-29T00:30:00.000Z');
    expect(fromLocalInput('2026-03-29T02:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    expect(fromLocalInput('2026-03-29T03:30', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('reads a time that happens twice (clocks back, Europe/Berlin 2026-10-25) as the first one', () => {
    expect(fromLocalInput('2026-10-25T02:30', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
  });

  it('gives null for an empty value and invalid for anything else that is not a date-time', () => {
    expect(fromLocalInput('', 'Europe/Berlin')).toBeNull();
    expect(fromLocalInput('  ', 'Europe/Berlin')).toBeNull();
    for (const garbage of ['tomorrow', '2026-11-23', '2026-02-30T10:00', '2026-11-23T25:00', '2026-11-23T09:00Z']) {
      expect(fromLocalInput(garbage, 'Europe/Berlin')).toBe('invalid');
    }
  });
});

describe('endAfterStartChange (docs/product.md, Validation: one hour later for events, equal for tasks)', () => {
  it('sets an event one hour after the start, across midnight too', () => {
    expect(endAfterStartChange('2026-11-23T09:15', false)).toBe('2026-11-23T10:15');
    expect(endAfterStartChange('2026-12-31T23:30', false)).toBe('2027-01-01T00:30');
  });

  it('sets a task equal to the start', () => {
    expect(endAfterStartChange('2026-11-23T09:15', true)).toBe('2026-11-23T09:15');
    expect(endAfterStartChange('2026-11-23T09:15:40', true)).toBe('2026-11-23T09:15');
  });

  it('leaves a value that is not a date-time as it is', () => {
    expect(endAfterStartChange('', false)).toBe('');
    expect(endAfterStartChange('2026-11-2', false)).toBe('2026-11-2');
  });

  it('given the zone, ends one real hour later on the day clocks go forward (Europe/Berlin 2026-03-29)', () => {
    // 02:30 does not exist that night and is read as 03:30, so the end is 04:30. The bare
    // wall-clock hour (03:30) would read back as the same instant: an event of no length.
    expect(endAfterStartChange('2026-03-29T02:30', false)).toBe('2026-03-29T03:30');
    const end = endAfterStartChange('2026-03-29T02:30', false, 'Europe/Berlin');
    expect(end).toBe('2026-03-29T04:30');
    const startTime = Date.parse(fromLocalInput('2026-03-29T02:30', 'Europe/Berlin') as string);
    expect(Date.parse(fromLocalInput(end, 'Europe/Berlin') as string) - startTime).toBe(3_600_000);
    expect(endAfterStartChange('2026-03-29T01:30', false, 'Europe/Berlin')).toBe('2026-03-29T03:30');
  });

  it('given the zone, keeps the wall-clock hour when the exact end would name the repeated hour', () => {
    // 02:30 on 2026-10-25 is read as the first 02:30 (CEST); one hour later is the second 02:30,
    // which the input cannot name, so the end is 03:30.
    expect(endAfterStartChange('2026-10-25T02:30', false, 'Europe/Berlin')).toBe('2026-10-25T03:30');
    expect(endAfterStartChange('2026-10-25T01:30', false, 'Europe/Berlin')).toBe('2026-10-25T02:30');
  });
});

describe('localDate', () => {
  it('gives the date in the given zone, not in UTC nor the machine zone', () => {
    expect(localDate('2026-11-23T12:30:00Z', 'Pacific/Auckland')).toBe('2026-11-24');
    expect(localDate('2026-11-23T03:00:00Z', 'America/Los_Angeles')).toBe('2026-11-22');
    expect(localDate(new Date('2026-11-23T03:00:00Z'), 'Europe/Berlin')).toBe('2026-11-23');
  });

  it('takes the shifted offset on a DST day (Europe/Berlin 2026-03-29)', () => {
    expect(localDate('2026-03-28T22:59:00Z', 'Europe/Berlin')).toBe('2026-03-28'); // 23:59 CET
    expect(localDate('2026-03-29T22:30:00Z', 'Europe/Berlin')).toBe('2026-03-30'); // 00:30 CEST
  });

  it('uses UTC for an unknown zone and gives an empty string for an instant that does not parse', () => {
    expect(localDate('2026-11-23T23:30:00Z', '')).toBe('2026-11-23');
    expect(localDate('never', 'Europe/Berlin')).toBe('');
  });
});
