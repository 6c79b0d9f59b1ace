/**
 * Every date and time a screen shows, in one format: the user's locale (the browser's language,
 * so its own order, month names and 12- or 24-hour clock) and the user's time zone. The calendar
 * grid, the cards, Upcoming, the dashboard's Today's Focus, the polls' deadlines, the profile and
 * the event dialog's time field all format through here, so a list never says '14:00' beside a
 * field that says '2:00 PM', nor '2026-11-27' beside '27 Nov'.
 *
 * `locale` is the BCP 47 tag to format in; without one, the display locale: the runtime's default
 * (in a browser, the user's language) unless `setDisplayLocale` fixed one (the tests do, so their
 * expectations do not depend on the machine's language).
 */
import { epochOf, safeTimeZone } from './event-times.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();
let displayLocale: string | undefined;

/** Fixes the locale every format here uses when given none; undefined: the runtime's default. */
export function setDisplayLocale(locale: string | undefined): void {
  displayLocale = locale;
}

/**
 * The formatter for these options in the locale, made once: building an Intl.DateTimeFormat costs
 * far more than using one, and the grid formats every day on every refresh.
 */
export function formatter(options: Intl.DateTimeFormatOptions, wanted?: string): Intl.DateTimeFormat {
  const locale = wanted ?? displayLocale;
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, made);
  }
  return made;
}

/**
 * Hours and minutes as the locale writes them: its own clock (resolved from its short time
 * style), two-digit hours on a 24-hour clock ('08:30'), a bare hour on a 12-hour one ('8:30 AM').
 */
function timeFields(locale: string | undefined): Intl.DateTimeFormatOptions {
  const cycle = formatter({ timeStyle: 'short', timeZone: 'UTC' }, locale).resolvedOptions().hourCycle;
  const twelve = cycle === 'h11' || cycle === 'h12';
  return { hour: twelve ? 'numeric' : '2-digit', minute: '2-digit', hourCycle: cycle };
}
const DAY_MONTH: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' };
const DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };

function format(instant: string | Date, timeZone: string, options: Intl.DateTimeFormatOptions, wanted?: string) {
  const locale = wanted ?? displayLocale;
  const time = epochOf(instant);
  return time === null ? '' : formatter({ ...options, timeZone: safeTimeZone(timeZone) }, locale).format(time);
}

/** The time of day of an instant in the zone: '14:30' or '2:30 PM' as the locale writes it. */
export function formatTime(instant: string | Date, timeZone: string, locale?: string): string {
  return format(instant, timeZone, timeFields(locale ?? displayLocale), locale);
}

/** The day of an instant without the year: '27 Nov' or 'Nov 27'. */
export function formatDayMonth(instant: string | Date, timeZone: string, locale?: string): string {
  return format(instant, timeZone, DAY_MONTH, locale);
}

/** The date of an instant: '27 Nov 2026' or 'Nov 27, 2026'. */
export function formatDate(instant: string | Date, timeZone: string, locale?: string): string {
  return format(instant, timeZone, DATE, locale);
}

/** The day of an instant in full: 'Friday 27 November' or 'Friday, November 27'. */
export function formatLongDate(instant: string | Date, timeZone: string, locale?: string): string {
  return format(instant, timeZone, { weekday: 'long', day: 'numeric', month: 'long' }, locale);
}

/** The date and time of an instant: '27 Nov 2026, 14:30' or 'Nov 27, 2026, 2:30 PM'. */
export function formatDateTime(instant: string | Date, timeZone: string, locale?: string): string {
  return format(instant, timeZone, { ...DATE, ...timeFields(locale ?? displayLocale) }, locale);
}

/** A day and time without the year: '27 Nov, 14:30' or 'Nov 27, 2:30 PM'. */
export function formatDayMonthTime(instant: string | Date, timeZone: string, locale?: string): string {
  return format(instant, timeZone, { ...DAY_MONTH, ...timeFields(locale ?? displayLocale) }, locale);
}

/**
 * A plain day ('YYYY-MM-DD') with the options (no time fields): the grid's headings and labels.
 * Formatted as a UTC midnight in UTC, so no zone can move it to another day.
 */
export function formatPlainDay(day: string, options: Intl.DateTimeFormatOptions, locale?: string): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? '' : formatter({ ...options, timeZone: 'UTC' }, locale).format(time);
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** A wall-clock 'HH:mm' as the locale writes a time ('14:30' or '2:30 PM'); '' when it is not one. */
export function formatClock(clock: string, locale?: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(clock);
  if (!match) return '';
  const [hour, minute] = [Number(match[1]), Number(match[2])];
  if (hour > 23 || minute > 59) return '';
  return formatter({ ...timeFields(locale ?? displayLocale), timeZone: 'UTC' }, locale).format(
    Date.UTC(2000, 0, 1, hour, minute),
  );
}

/** The locale's words for before and after noon, lower case ('am'/'pm', 'vorm.'/'nachm.'). */
function dayPeriods(locale?: string): { am: string; pm: string } {
  const words = [0, 12].map((hour) => {
    const parts = formatter({ hour: 'numeric', hourCycle: 'h12', timeZone: 'UTC' }, locale).formatToParts(
      Date.UTC(2000, 0, 1, hour),
    );
    return (parts.find((part) => part.type === 'dayPeriod')?.value ?? '').toLowerCase().replace(/[.\s]/g, '');
  });
  return { am: words[0] || 'am', pm: words[1] || 'pm' };
}

/** Text with the locale's own digits (Arabic-Indic, Devanagari...) written as 0-9. */
function latinDigits(text: string, locale: string | undefined): string {
  const numbers = new Intl.NumberFormat(locale, { useGrouping: false });
  const digits = Array.from({ length: 10 }, (_, digit) => numbers.format(digit));
  return text.replace(/\p{Nd}/gu, (char) => {
    const digit = digits.indexOf(char);
    return digit < 0 ? char : String(digit);
  });
}

/**
 * What a user typed in a time field, as 'HH:mm'; null when it is not a time. Takes the locale's
 * own form ('14:30', '2:30 PM', '14.30') and the common others: '1430', '9', '9:05', '2pm',
 * 'a.m.'/'p.m.' and the locale's own words for them.
 */
export function parseClock(text: string, locale?: string): string | null {
  const compact = latinDigits(text, locale ?? displayLocale)
    .replace(/[\u200e\u200f\u061c]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s.\u202f\u00a0]/g, (char) => (char === '.' ? ':' : ''));
  const match = /(\d{1,2})(?::?(\d{2}))?(?::\d{2})?/.exec(compact);
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  // What is left is the day period, before the time ('AM 8:30') or after it ('8:30 pm').
  const period = (compact.slice(0, match.index) + compact.slice(match.index + match[0].length)).replace(/:/g, '');
  if (minute > 59) return null;
  if (period !== '') {
    const words = dayPeriods(locale);
    const am = period === 'am' || period === 'a' || period === words.am;
    const pm = period === 'pm' || period === 'p' || period === words.pm;
    if ((!am && !pm) || hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (hour > 23) return null;
  return `${pad(hour)}:${pad(minute)}`;
}
