/**
 * The phrases a typed plan is read by (plain-words.ts): repeat phrases the app stores and those it
 * cannot, priorities, relative times, 'until', 'next <weekday>', and the calendar arithmetic they
 * need. English only, as the parser (docs/product.md, Calendar 'Type a plan').
 */
import type { ParsedComponents } from 'chrono-node';
import { Temporal } from 'temporal-polyfill';
import type { Priority, RecurrenceRule } from './validation.ts';

export const WEEKDAY =
  '(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)s?';
export const WEEKDAY_INDEX: Record<string, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };
export const weekdayOf = (word: string): number => WEEKDAY_INDEX[word.slice(0, 3).toLowerCase()] ?? 1;

/** Repeat phrases the app cannot store, checked before the ones it can (they contain them). */
export const UNSUPPORTED_REPEATS: RegExp[] = [
  new RegExp(`\\b(?:every|each)\\s+${WEEKDAY}(?:\\s*(?:,|and|&|\\+|or)\\s*${WEEKDAY})+\\b`, 'i'),
  /\b(?:every|each)\s+(?:other|second|third|fourth|fifth|first|last|\d+(?:st|nd|rd|th)?)\s+[a-z]+\b/i,
  /\b(?:every|each)\s+(?:weekdays?|weekends?|(?:working|business|work)\s+days?)\b/i,
  /\b(?:on\s+)?(?:weekdays|weekends|(?:working|business|work)\s+days)\b/i,
  /\b(?:every|each)\s+(?:year|hour|minute|quarter|fortnight)\b/i,
  /\b(?:yearly|annually|hourly|biweekly|bi-weekly|fortnightly|bimonthly|bi-monthly|quarterly|semiweekly)\b/i,
  /\b(?:twice|three times)\s+a\s+(?:day|week|month)\b/i,
];

export type Anchor = { kind: 'weekday'; day: number } | { kind: 'monthDay'; day: number };

export interface Found {
  rule: RecurrenceRule;
  anchor?: Anchor;
}

/** Repeat phrases the app stores, with the day they fix when the text names no date. */
export const SUPPORTED_REPEATS: { pattern: RegExp; read(match: RegExpExecArray): Found }[] = [
  { pattern: /\b(?:every\s*day|each\s+day|daily)\b/i, read: () => ({ rule: 'daily' }) },
  {
    pattern: new RegExp(`\\b(?:every|each)\\s+(${WEEKDAY})\\b`, 'i'),
    read: (match) => ({ rule: 'weekly', anchor: { kind: 'weekday', day: weekdayOf(match[1] ?? '') } }),
  },
  { pattern: /\b(?:every\s+week|each\s+week|weekly)\b/i, read: () => ({ rule: 'weekly' }) },
  {
    pattern: /\b(?:(?:every|each)\s+month|monthly)(?:\s+on\s+the\s+(\d{1,2})(?:st|nd|rd|th)?)?\b/i,
    read: (match) =>
      match[1] === undefined
        ? { rule: 'monthly' }
        : { rule: 'monthly', anchor: { kind: 'monthDay', day: Number(match[1]) } },
  },
];

export const PRIORITY = /(?:^|\s)(!high|!medium|!med|!low|p1|p2|p3)(?=\s|$)/gi;
export const PRIORITY_OF: Record<string, Priority> = {
  '!high': 'high',
  p1: 'high',
  '!medium': 'medium',
  '!med': 'medium',
  p2: 'medium',
  '!low': 'low',
  p3: 'low',
};

export const RELATIVE =
  /\b(?:in\s+(\d{1,4}|an?|one|half\s+an?)\s+(minutes?|mins?|hours?|hrs?|h|days?|weeks?)|(\d{1,4}|an?|one)\s+(minutes?|mins?|hours?|hrs?|days?|weeks?)\s+from\s+now)\b/i;
export const UNTIL = /\b(?:until|till|til|through|thru|ending)\s+/i;
export const NEXT_WEEKDAY = new RegExp(`\\bnext\\s+(${WEEKDAY})\\b`, 'i');
export const DUE = /\bdue\b/i;
export const ON_THE_DAY = /\bon\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b/i;
/** Words left dangling once a date is taken out ('Dentist at', 'Pay rent on'). */
export const DANGLING =
  /^(?:at|on|from|by|due|for|the|in|every|each|and|to|starting|,|-)\s+|\s+(?:at|on|from|by|due|for|the|in|every|each|and|to|starting|,|-)$/i;

export function amount(word: string): number {
  const lower = word.toLowerCase().replace(/\s+/g, ' ');
  if (lower.startsWith('half')) return 0.5;
  if (lower === 'a' || lower === 'an' || lower === 'one') return 1;
  return Number(lower);
}

/** The first date on or after `from` that is weekday `day` (ISO). */
export function onOrAfterWeekday(from: Temporal.PlainDate, day: number): Temporal.PlainDate {
  return from.add({ days: (day - from.dayOfWeek + 7) % 7 });
}

/** The first date on or after `from` whose day of the month is `day` (a month without it is passed). */
export function onOrAfterMonthDay(from: Temporal.PlainDate, day: number): Temporal.PlainDate | null {
  if (day < 1 || day > 31) return null;
  let month = from.toPlainYearMonth();
  for (let i = 0; i < 13; i++) {
    if (day <= month.daysInMonth) {
      const date = month.toPlainDate({ day });
      if (Temporal.PlainDate.compare(date, from) >= 0) return date;
    }
    month = month.add({ months: 1 });
  }
  return null;
}

/** The weekday `day` in the week after the one holding `today`, weeks starting on `weekStart`. */
export function nextWeekday(today: Temporal.PlainDate, day: number, weekStart: number): Temporal.PlainDate {
  const sinceStart = (today.dayOfWeek - weekStart + 7) % 7;
  const nextWeekStart = today.add({ days: 7 - sinceStart });
  return nextWeekStart.add({ days: (day - weekStart + 7) % 7 });
}

export function plainDateOf(component: ParsedComponents): Temporal.PlainDate | null {
  const [year, month, day] = [component.get('year'), component.get('month'), component.get('day')];
  if (year === null || month === null || day === null) return null;
  try {
    return Temporal.PlainDate.from({ year, month, day }, { overflow: 'reject' });
  } catch {
    return null;
  }
}

export const clockOf = (component: ParsedComponents): Temporal.PlainTime =>
  new Temporal.PlainTime(component.get('hour') ?? 0, component.get('minute') ?? 0);

export const hasDate = (component: ParsedComponents): boolean =>
  component.isCertain('day') || component.isCertain('weekday') || component.isCertain('month');

/** A text with the matched span blanked out (kept the same length, so later indexes hold). */
export function blank(text: string, index: number, length: number): string {
  return text.slice(0, index) + ' '.repeat(length) + text.slice(index + length);
}

/** The title left once the phrases are taken out, without words left dangling. */
export function cleanTitle(text: string): string {
  let title = text.replace(/\s+/g, ' ').trim();
  for (let previous = ''; previous !== title;) {
    previous = title;
    title = title.replace(DANGLING, '').trim();
  }
  return /^(?:at|on|from|by|due|for|the|in|every|each|and|to|,|-)$/i.test(title) ? '' : title;
}
