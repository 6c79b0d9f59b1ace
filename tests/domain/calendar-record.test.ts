import { describe, expect, it } from 'vitest';
import { completionPatch, inferIsTask, readCalendarRecord, readPriority } from '../../src/domain/calendar-record.ts';

const at = '2026-11-23T09:00:00Z';
const later = '2026-11-23T10:00:00Z';

describe('reading an event or task record (docs/product.md, Records)', () => {
  it('takes is_task when the record carries it, whatever its dates say', () => {
    expect(readCalendarRecord({ is_task: false, starts_at: at, ends_at: at }).isTask).toBe(false);
    expect(readCalendarRecord({ is_task: true, starts_at: at, ends_at: later }).isTask).toBe(true);
  });

  it('without is_task: a task when start equals end or there is no end, else an event', () => {
    expect(readCalendarRecord({ starts_at: at, ends_at: at }).isTask).toBe(true);
    // The same instant written with an offset and with milliseconds.
    expect(readCalendarRecord({ starts_at: at, ends_at: '2026-11-23T10:00:00.000+01:00' }).isTask).toBe(true);
    expect(readCalendarRecord({ starts_at: at }).isTask).toBe(true);
    expect(readCalendarRecord({ starts_at: at, ends_at: null }).isTask).toBe(true);
    expect(readCalendarRecord({ starts_at: at, ends_at: later }).isTask).toBe(false);
  });

  it('counts a record with neither start nor end as a task only in the dashboard reading', () => {
    expect(readCalendarRecord({}).isTask).toBe(false);
    expect(readCalendarRecord({}, 'dashboard').isTask).toBe(true);
    expect(inferIsTask(null, null, 'dashboard')).toBe(true);
    expect(inferIsTask(null, later, 'calendar')).toBe(false);
  });

  it('reads start_date and end_date as aliases, the canonical names first, blanks as missing', () => {
    expect(readCalendarRecord({ start_date: at, end_date: later })).toMatchObject({ start: at, end: later });
    expect(readCalendarRecord({ starts_at: at, start_date: later })).toMatchObject({ start: at });
    expect(readCalendarRecord({ starts_at: '  ', start_date: at })).toMatchObject({ start: at });
  });

  it('counts any priority outside low, medium and high as medium, and gives events none', () => {
    expect(readPriority('high')).toBe('high');
    expect(readPriority('low')).toBe('low');
    for (const odd of ['urgent', 'HIGH', '', null, undefined]) expect(readPriority(odd)).toBe('medium');
    expect(readCalendarRecord({ is_task: true, priority: 'urgent' }).priority).toBe('medium');
    expect(readCalendarRecord({ is_task: false, priority: 'high' }).priority).toBeNull();
  });

  it('reads completion from is_completed or completed, and writes back to the same field', () => {
    expect(readCalendarRecord({ is_task: true, is_completed: true })).toMatchObject({
      completed: true,
      completionField: 'is_completed',
    });
    expect(readCalendarRecord({ is_task: true, completed: true })).toMatchObject({
      completed: true,
      completionField: 'completed',
    });
    expect(readCalendarRecord({ is_task: true })).toMatchObject({ completed: false, completionField: 'is_completed' });
    expect(completionPatch({ completed: false }, true)).toEqual({ completed: true });
    expect(completionPatch({ is_completed: true }, false)).toEqual({ is_completed: false });
    expect(completionPatch({}, true)).toEqual({ is_completed: true });
  });
});
