import { describe, expect, it } from 'vitest';
import {
  bestSlot,
  isValidSlot,
  slotCounts,
  slotLabel,
  slotRange,
  slotsFromInput,
  type TimeSlot,
} from '../../src/domain/time-slots.ts';

const GB = 'en-GB';
const nineLondon: TimeSlot = { id: 'a', start: '2026-03-16T09:00:00.000Z', minutes: 60 };

describe('slotLabel (docs/product.md, Find a time)', () => {
  it("shows a slot in the reader's zone, with the creator's zone named when it is another", () => {
    expect(slotLabel(nineLondon, 'Europe/Berlin', 'Europe/London', GB)).toEqual({
      when: 'Mon 16 Mar, 10:00–11:00',
      creator: '09:00–10:00 in Europe/London',
    });
  });

  it("names no zone when the reader's is the creator's", () => {
    expect(slotLabel(nineLondon, 'Europe/London', 'Europe/London', GB)).toEqual({
      when: 'Mon 16 Mar, 09:00–10:00',
      creator: null,
    });
  });

  it('writes the time in the locale (12-hour in en-US)', () => {
    expect(slotLabel(nineLondon, 'America/New_York', 'Europe/London', 'en-US').when).toBe(
      'Mon, Mar 16, 5:00 AM–6:00 AM',
    );
  });

  it('a whole day is that day everywhere', () => {
    const day: TimeSlot = { id: 'd', day: '2026-03-18' };
    expect(slotLabel(day, 'Pacific/Auckland', 'Europe/London', GB)).toEqual({
      when: 'Wed 18 Mar, All day',
      creator: null,
    });
    expect(slotLabel(day, 'America/Los_Angeles', 'Europe/London', GB).when).toBe('Wed 18 Mar, All day');
  });

  it('names the end day when a slot crosses midnight in the reader zone', () => {
    const late: TimeSlot = { id: 'l', start: '2026-03-16T22:30:00.000Z', minutes: 120 };
    expect(slotLabel(late, 'UTC', 'UTC', GB).when).toBe('Mon 16 Mar, 22:30–Tue 17 Mar, 00:30');
  });
});

describe('isValidSlot and slotRange', () => {
  it('takes a start with 15 minutes to 24 hours, or a real day', () => {
    expect(isValidSlot(nineLondon)).toBe(true);
    expect(isValidSlot({ start: nineLondon.start, minutes: 14 })).toBe(false);
    expect(isValidSlot({ start: nineLondon.start, minutes: 1441 })).toBe(false);
    expect(isValidSlot({ start: nineLondon.start, minutes: 30.5 })).toBe(false);
    expect(isValidSlot({ start: 'tomorrow', minutes: 60 })).toBe(false);
    expect(isValidSlot({ start: null, minutes: 60 })).toBe(false);
    expect(isValidSlot({ day: '2026-02-30' })).toBe(false);
    expect(isValidSlot({ day: '2026-02-28' })).toBe(true);
  });

  it("makes a whole day its midnights in the creator's zone", () => {
    expect(slotRange({ day: '2026-07-01' }, 'Europe/London')).toEqual({
      starts_at: '2026-06-30T23:00:00.000Z',
      ends_at: '2026-07-01T23:00:00.000Z',
      all_day: true,
    });
    expect(slotRange(nineLondon, 'Europe/London')).toEqual({
      starts_at: '2026-03-16T09:00:00.000Z',
      ends_at: '2026-03-16T10:00:00.000Z',
      all_day: false,
    });
  });
});

describe('slotCounts', () => {
  const slots: TimeSlot[] = [
    { id: 'a', yes: 2, maybe: 1, votes: 2 },
    { id: 'b', yes: 0, maybe: 3, votes: 0 },
  ];

  it("are the server's counts under a row from the server", () => {
    expect(slotCounts(slots, { answers: { a: 'yes', b: 'maybe' } })).toEqual([
      { yes: 2, maybe: 1 },
      { yes: 0, maybe: 3 },
    ]);
  });

  it('count a pending answer once: answers minus local_base', () => {
    // The server holds a: yes; the device changed it to maybe and added b: yes.
    const mine = { answers: { a: 'maybe', b: 'yes' }, local_base: { a: 'yes' } } as const;
    expect(slotCounts(slots, mine)).toEqual([
      { yes: 1, maybe: 2 },
      { yes: 1, maybe: 3 },
    ]);
  });

  it('a first answer (local_base empty) adds one', () => {
    expect(slotCounts(slots, { answers: { b: 'no' }, local_base: {} })).toEqual([
      { yes: 2, maybe: 1 },
      { yes: 0, maybe: 3 },
    ]);
    expect(slotCounts(slots, { answers: { b: 'yes' }, local_base: {} })[1]).toEqual({ yes: 1, maybe: 3 });
  });

  it('read votes as the Yes count of a row without yes', () => {
    expect(slotCounts([{ id: 'a', votes: 4 }], undefined)).toEqual([{ yes: 4, maybe: 0 }]);
  });
});

describe('bestSlot', () => {
  const at = (day: number): TimeSlot => ({ id: String(day), start: `2026-03-${day}T09:00:00.000Z`, minutes: 60 });
  const slots = [at(18), at(17), at(16)];

  it('most Yes first', () => {
    expect(
      bestSlot(
        slots,
        [
          { yes: 3, maybe: 0 },
          { yes: 2, maybe: 5 },
          { yes: 1, maybe: 0 },
        ],
        'UTC',
      ),
    ).toBe(0);
  });

  it('then most If need be', () => {
    expect(
      bestSlot(
        slots,
        [
          { yes: 2, maybe: 0 },
          { yes: 2, maybe: 1 },
          { yes: 1, maybe: 0 },
        ],
        'UTC',
      ),
    ).toBe(1);
  });

  it('then the earliest', () => {
    expect(
      bestSlot(
        slots,
        [
          { yes: 1, maybe: 1 },
          { yes: 1, maybe: 1 },
          { yes: 1, maybe: 1 },
        ],
        'UTC',
      ),
    ).toBe(2);
  });

  it('none while nobody said Yes or If need be', () => {
    expect(
      bestSlot(
        slots,
        slots.map(() => ({ yes: 0, maybe: 0 })),
        'UTC',
      ),
    ).toBeNull();
  });
});

describe('slotsFromInput', () => {
  let n = 0;
  const makeId = () => `s${(n += 1)}`;

  it("reads the rows in the creator's zone, earliest first", () => {
    n = 0;
    const slots = slotsFromInput(
      [
        { date: '2026-03-20', time: '14:00', minutes: 90, allDay: false },
        { date: '2026-03-19', time: '', minutes: 60, allDay: true },
        { date: '2026-03-29', time: '02:30', minutes: 30, allDay: false },
      ],
      'Europe/Berlin',
      makeId,
    );
    expect(slots).toEqual([
      { id: 's2', start: null, minutes: null, day: '2026-03-19' },
      { id: 's1', start: '2026-03-20T13:00:00.000Z', minutes: 90, day: null },
      // 02:30 is skipped by the change of clocks: it moves forward by the gap.
      { id: 's3', start: '2026-03-29T01:30:00.000Z', minutes: 30, day: null },
    ]);
  });

  it('refuses a row without a time or a real date', () => {
    expect(slotsFromInput([{ date: '2026-03-20', time: '', minutes: 60, allDay: false }], 'UTC', makeId)).toBeNull();
    expect(slotsFromInput([{ date: '2026-02-31', time: '', minutes: 60, allDay: true }], 'UTC', makeId)).toBeNull();
  });
});
