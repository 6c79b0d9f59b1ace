/** readPlan on random text (docs/product.md, Calendar: a plan typed in plain words): never a throw, never a bad field. */
import { describe, expect, it } from 'vitest';
import { readPlan } from '../../src/domain/plain-words.ts';
import { isStorableText } from '../../src/domain/storable-text.ts';
import { inAnotherMachineZone } from '../support/machine-zone.ts';
import { mulberry32 } from '../support/prng.ts';

inAnotherMachineZone();

const PARIS = 'Europe/Paris';
const LA = 'America/Los_Angeles';

const WORDS = [
  'every',
  'tuesday',
  'and',
  'until',
  'next',
  'monday',
  'in',
  '2',
  'hours',
  '15:30',
  '12:30-13:30',
  '!high',
  'p1',
  'daily',
  'monthly',
  'on',
  'the',
  '31st',
  'to',
  '24',
  'Dec',
  'Feb',
  '29',
  'due',
  'at',
  '-',
  '7am',
  'weekdays',
  'other',
  '0',
  '99999',
  ':',
  '\u0000',
  '\ud800',
  '😀',
  'ß',
  '\n',
  '  ',
];

describe('readPlan on random text', () => {
  it('never throws, and answers storable fields and valid instants', () => {
    const next = mulberry32(34).next;
    const zones = [PARIS, LA, 'UTC', 'Pacific/Kiritimati', 'Asia/Kathmandu'];
    for (let i = 0; i < 1500; i++) {
      const length = Math.floor(next() * 12);
      const parts: string[] = [];
      for (let j = 0; j < length; j++) {
        parts.push(
          next() < 0.7
            ? WORDS[Math.floor(next() * WORDS.length)]!
            : String.fromCharCode(
                ...Array.from({ length: 1 + Math.floor(next() * 5) }, () => Math.floor(next() * 0xffff)),
              ),
        );
      }
      const text = parts.join(next() < 0.5 ? ' ' : '');
      const now = Date.UTC(2020, 0, 1) + Math.floor(next() * 20 * 365 * 86_400_000);
      const zone = zones[Math.floor(next() * zones.length)]!;
      const reading = readPlan(text, {
        now,
        timeZone: zone,
        weekStart: 1 + Math.floor(next() * 7),
        dayFirst: next() < 0.5,
      });
      expect(isStorableText(reading.title), text).toBe(true);
      for (const instant of [reading.start, reading.end]) {
        if (instant !== undefined) expect(Number.isNaN(Date.parse(instant)), text).toBe(false);
      }
      if (reading.start !== undefined && reading.end !== undefined) {
        expect(Date.parse(reading.end) >= Date.parse(reading.start), text).toBe(true);
      }
    }
  });
});
