import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import {
  END_NEEDS_EVENT,
  NO_DATE,
  notUnderstoodRepeat,
  notUnderstoodUntil,
  PRIORITY_NEEDS_TASK,
  readPlan,
  type PlanReading,
} from '../../src/domain/plain-words.ts';
import { isStorableText } from '../../src/domain/storable-text.ts';
import { inAnotherMachineZone } from '../support/machine-zone.ts';

inAnotherMachineZone();

const PARIS = 'Europe/Paris';
const LA = 'America/Los_Angeles';
/** Wednesday 25 March 2026: 10:00 in Paris, 02:00 in Los Angeles. Paris moves to summer time on Sunday 29. */
const NOW = Date.parse('2026-03-25T09:00:00Z');

type Expected = Partial<PlanReading>;

const cases: { phrase: string; both?: Expected; [PARIS]: Expected; [LA]: Expected }[] = [
  {
    phrase: 'Dentist tomorrow 15:30',
    both: { title: 'Dentist', isTask: false, allDay: false, notUnderstood: [] },
    [PARIS]: { start: '2026-03-26T14:30:00.000Z', end: '2026-03-26T15:30:00.000Z' },
    [LA]: { start: '2026-03-26T22:30:00.000Z', end: '2026-03-26T23:30:00.000Z' },
  },
  {
    phrase: 'Pay rent every month on the 1st',
    both: { title: 'Pay rent', isTask: false, allDay: true, repeat: 'monthly', notUnderstood: [] },
    // All day on Wednesday 1 April (Paris already on summer time).
    [PARIS]: { start: '2026-03-31T22:00:00.000Z', end: '2026-04-01T22:00:00.000Z' },
    [LA]: { start: '2026-04-01T07:00:00.000Z', end: '2026-04-02T07:00:00.000Z' },
  },
  {
    phrase: 'Standup weekdays 9:30 until 31 March',
    both: {
      title: 'Standup',
      isTask: false,
      repeat: undefined,
      until: '2026-03-31',
      notUnderstood: [notUnderstoodRepeat('weekdays')],
    },
    // 09:30 has passed in Paris (10:00): tomorrow; not yet in Los Angeles (02:00): today.
    [PARIS]: { start: '2026-03-26T08:30:00.000Z', end: '2026-03-26T09:30:00.000Z' },
    [LA]: { start: '2026-03-25T16:30:00.000Z', end: '2026-03-25T17:30:00.000Z' },
  },
  {
    phrase: 'Call Ana in 2 hours',
    both: { title: 'Call Ana', isTask: false, allDay: false, start: '2026-03-25T11:00:00.000Z' },
    [PARIS]: { end: '2026-03-25T12:00:00.000Z' },
    [LA]: { end: '2026-03-25T12:00:00.000Z' },
  },
  {
    phrase: 'Team lunch friday 12:30-13:30 !high',
    both: { title: 'Team lunch', isTask: true, priority: 'high', notUnderstood: [END_NEEDS_EVENT] },
    [PARIS]: { start: '2026-03-27T11:30:00.000Z', end: '2026-03-27T11:30:00.000Z' },
    [LA]: { start: '2026-03-27T19:30:00.000Z', end: '2026-03-27T19:30:00.000Z' },
  },
  {
    phrase: 'Submit report next monday p1',
    both: { title: 'Submit report', isTask: true, allDay: true, priority: 'high' },
    [PARIS]: { start: '2026-03-29T22:00:00.000Z', end: '2026-03-29T22:00:00.000Z' },
    [LA]: { start: '2026-03-30T07:00:00.000Z', end: '2026-03-30T07:00:00.000Z' },
  },
  {
    phrase: 'Yoga every tuesday and thursday 7am',
    both: { title: 'Yoga', repeat: undefined, notUnderstood: [notUnderstoodRepeat('every tuesday and thursday')] },
    [PARIS]: { start: '2026-03-26T06:00:00.000Z' },
    [LA]: { start: '2026-03-25T14:00:00.000Z' },
  },
  {
    phrase: 'Holiday 24 Dec to 2 Jan',
    both: { title: 'Holiday', isTask: false, allDay: true },
    [PARIS]: { start: '2026-12-23T23:00:00.000Z', end: '2027-01-02T23:00:00.000Z' },
    [LA]: { start: '2026-12-24T08:00:00.000Z', end: '2027-01-03T08:00:00.000Z' },
  },
  {
    phrase: 'Buy milk',
    both: {
      title: 'Buy milk',
      isTask: true,
      allDay: false,
      start: undefined,
      end: undefined,
      notUnderstood: [NO_DATE],
    },
    [PARIS]: {},
    [LA]: {},
  },
  {
    phrase: 'Gym every tuesday 7am until 30 june',
    both: { title: 'Gym', isTask: false, repeat: 'weekly', until: '2026-06-30', notUnderstood: [] },
    [PARIS]: { start: '2026-03-31T05:00:00.000Z', end: '2026-03-31T06:00:00.000Z' },
    [LA]: { start: '2026-03-31T14:00:00.000Z', end: '2026-03-31T15:00:00.000Z' },
  },
  {
    phrase: 'Water plants daily 8:00',
    both: { title: 'Water plants', repeat: 'daily' },
    [PARIS]: { start: '2026-03-26T07:00:00.000Z' },
    [LA]: { start: '2026-03-25T15:00:00.000Z' },
  },
  {
    phrase: 'Pay bills due friday !low',
    both: { title: 'Pay bills', isTask: true, allDay: true, priority: 'low' },
    [PARIS]: { start: '2026-03-26T23:00:00.000Z' },
    [LA]: { start: '2026-03-27T07:00:00.000Z' },
  },
  {
    phrase: 'Sync every monday 10:00-10:30 until 30 april',
    both: {
      title: 'Sync',
      repeat: 'weekly',
      until: '2026-04-30',
      understood: ['every monday', '10:00-10:30', 'until 30 april'],
    },
    [PARIS]: { start: '2026-03-30T08:00:00.000Z', end: '2026-03-30T08:30:00.000Z' },
    [LA]: { start: '2026-03-30T17:00:00.000Z', end: '2026-03-30T17:30:00.000Z' },
  },
  {
    phrase: 'Meet Tom at 10 on the 5th',
    both: { title: 'Meet Tom', isTask: false, repeat: undefined },
    [PARIS]: { start: '2026-04-05T08:00:00.000Z' },
    [LA]: { start: '2026-04-05T17:00:00.000Z' },
  },
  {
    phrase: 'Dentist tomorrow p1 15:30',
    both: { title: 'Dentist', isTask: true, priority: 'high', understood: ['tomorrow 15:30', 'p1'] },
    [PARIS]: { start: '2026-03-26T14:30:00.000Z', end: '2026-03-26T14:30:00.000Z' },
    [LA]: { start: '2026-03-26T22:30:00.000Z', end: '2026-03-26T22:30:00.000Z' },
  },
  // The week Paris changes clocks: Sunday 11:00 is summer time there (UTC+2).
  {
    phrase: 'Brunch sunday 11:00-12:30',
    both: { title: 'Brunch', isTask: false },
    [PARIS]: { start: '2026-03-29T09:00:00.000Z', end: '2026-03-29T10:30:00.000Z' },
    [LA]: { start: '2026-03-29T18:00:00.000Z', end: '2026-03-29T19:30:00.000Z' },
  },
  {
    // Across the Paris change: 23:00 winter time to 04:00 summer time is four hours.
    phrase: 'Party saturday 23:00-04:00',
    both: { title: 'Party' },
    [PARIS]: { start: '2026-03-28T22:00:00.000Z', end: '2026-03-29T02:00:00.000Z' },
    [LA]: { start: '2026-03-29T06:00:00.000Z', end: '2026-03-29T11:00:00.000Z' },
  },
  {
    // 02:30 does not exist in Paris that night: it moves forward by the gap, as the dialog does.
    phrase: 'Night train sunday 2:30',
    both: { title: 'Night train' },
    [PARIS]: { start: '2026-03-29T01:30:00.000Z' },
    [LA]: { start: '2026-03-29T09:30:00.000Z' },
  },
  {
    phrase: 'Weekend away 28 Mar to 29 Mar',
    both: { title: 'Weekend away', allDay: true },
    // Sunday 29 in Paris is 23 hours long.
    [PARIS]: { start: '2026-03-27T23:00:00.000Z', end: '2026-03-29T22:00:00.000Z' },
    [LA]: { start: '2026-03-28T07:00:00.000Z', end: '2026-03-30T07:00:00.000Z' },
  },
];

describe('readPlan', () => {
  for (const { phrase, both, ...zones } of cases) {
    for (const zone of [PARIS, LA] as const) {
      it(`reads '${phrase}' in ${zone}`, () => {
        const reading = readPlan(phrase, { now: NOW, timeZone: zone });
        const expected = Object.entries({ ...both, ...zones[zone] });
        expect(reading).toMatchObject(Object.fromEntries(expected.filter(([, value]) => value !== undefined)));
        for (const [key, value] of expected) {
          if (value === undefined) expect(reading).not.toHaveProperty(key);
        }
      });
    }
  }

  it('takes a Temporal.Instant as now', () => {
    const reading = readPlan('Dentist tomorrow 15:30', {
      now: Temporal.Instant.fromEpochMilliseconds(NOW),
      timeZone: PARIS,
    });
    expect(reading.start).toBe('2026-03-26T14:30:00.000Z');
  });

  it('reads the week Los Angeles changes clocks, in both zones', () => {
    // Thursday 5 March 2026, 09:00 in Los Angeles; it moves to summer time on Sunday 8.
    const now = Date.parse('2026-03-05T17:00:00Z');
    expect(readPlan('Brunch sunday 11:00', { now, timeZone: LA }).start).toBe('2026-03-08T18:00:00.000Z');
    expect(readPlan('Brunch sunday 11:00', { now, timeZone: PARIS }).start).toBe('2026-03-08T10:00:00.000Z');
    expect(readPlan('Standup friday 9:00', { now, timeZone: LA }).start).toBe('2026-03-06T17:00:00.000Z');
  });

  it("counts 'in 2 hours' as real hours across a change of clocks", () => {
    // 01:30 Pacific standard time on 8 March: two hours later the clocks say 04:30.
    const reading = readPlan('Call Ana in 2 hours', { now: Date.parse('2026-03-08T09:30:00Z'), timeZone: LA });
    expect(reading.start).toBe('2026-03-08T11:30:00.000Z');
  });

  it("reads 'next monday' in the week after this one, weeks starting on weekStart", () => {
    // Sunday 29 March 2026, noon in Paris.
    const now = Date.parse('2026-03-29T10:00:00Z');
    const monday = readPlan('Review next monday', { now, timeZone: PARIS, weekStart: 1 });
    const sunday = readPlan('Review next monday', { now, timeZone: PARIS, weekStart: 7 });
    expect(monday.start).toBe('2026-03-29T22:00:00.000Z');
    expect(sunday.start).toBe('2026-04-05T22:00:00.000Z');
    expect(readPlan('Review next monday', { now, timeZone: PARIS }).start).toBe(monday.start);
  });

  it('never guesses a repeat the app cannot store', () => {
    for (const [phrase, said] of [
      ['Meeting every 2nd tuesday 10:00', 'every 2nd tuesday'],
      ['Gym every other day', 'every other day'],
      ['Review every 2 weeks', 'every 2 weeks'],
      ['Birthday every year on 3 May', 'every year'],
      ['Payroll biweekly friday', 'biweekly'],
      ['Standup every weekday 9:00', 'every weekday'],
      ['Club every mon, wed and fri 18:00', 'every mon, wed and fri'],
      ['Meet every last friday', 'every last friday'],
    ] as const) {
      const reading = readPlan(phrase, { now: NOW, timeZone: PARIS });
      expect(reading.repeat, phrase).toBeUndefined();
      expect(reading.notUnderstood, phrase).toContain(notUnderstoodRepeat(said));
    }
  });

  it("reads 'in 3 days at 10:00' as the day from now and the time", () => {
    const reading = readPlan('Call back in 3 days at 10:00', { now: NOW, timeZone: PARIS });
    expect(reading).toMatchObject({ title: 'Call back', allDay: false, start: '2026-03-28T09:00:00.000Z' });
  });

  it("reads numeric dates day first where the user's locale does", () => {
    expect(readPlan('Dentist 3/4 at 10:00', { now: NOW, timeZone: PARIS, dayFirst: true }).start).toBe(
      '2026-04-03T08:00:00.000Z',
    );
    // Month first: 4 March has passed, so the next one.
    expect(readPlan('Dentist 3/4 at 10:00', { now: NOW, timeZone: PARIS }).start).toBe('2027-03-04T09:00:00.000Z');
  });

  it('keeps a repeat over a priority: a repeating item is an event', () => {
    const reading = readPlan('Backup every week friday 18:00 p1', { now: NOW, timeZone: PARIS });
    expect(reading).toMatchObject({ repeat: 'weekly', isTask: false, start: '2026-03-27T17:00:00.000Z' });
    expect(reading.priority).toBeUndefined();
    expect(reading.notUnderstood).toEqual([PRIORITY_NEEDS_TASK]);
  });

  it('says an until it cannot read', () => {
    const reading = readPlan('Gym every monday 7am until  whenever  it  suits', { now: NOW, timeZone: PARIS });
    expect(reading.repeat).toBe('weekly');
    expect(reading.until).toBeUndefined();
    expect(reading.notUnderstood).toEqual([notUnderstoodUntil('whenever it suits')]);
    expect(reading.title).toBe('Gym');
  });

  it('lists what it read, in the order of the text', () => {
    const reading = readPlan('Gym every tuesday 7am until 30 june !high', { now: NOW, timeZone: PARIS });
    expect(reading.understood).toEqual(['every tuesday', '7am', 'until 30 june', '!high']);
  });

  it('reads text with NUL characters and lone surrogates into storable fields', () => {
    const reading = readPlan('Den\u0000tist \ud83d tomorrow 15:30', { now: NOW, timeZone: PARIS });
    expect(reading.start).toBe('2026-03-26T14:30:00.000Z');
    expect(isStorableText(reading.title)).toBe(true);
    expect(reading.title.startsWith('Dentist')).toBe(true);
    expect(readPlan('\udc00\u0000', { now: NOW, timeZone: PARIS })).toMatchObject({ title: '\ufffd', isTask: true });
  });

  it('reads an unknown zone as UTC and an empty text as nothing', () => {
    expect(readPlan('Dentist tomorrow 15:30', { now: NOW, timeZone: 'Mars/Olympus' }).start).toBe(
      '2026-03-26T15:30:00.000Z',
    );
    expect(readPlan('   ', { now: NOW, timeZone: PARIS })).toMatchObject({ title: '', notUnderstood: [NO_DATE] });
  });
});
