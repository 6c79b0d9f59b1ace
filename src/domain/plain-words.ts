/**
 * A plan typed in plain words ('Dentist tomorrow 15:30', 'Pay rent every month on the 1st'), read
 * into the event dialog's fields (docs/product.md, Calendar 'Type a plan'; docs/architecture.md,
 * Calendar 'The typed plan'). Pure and offline: no clock, no network, no machine time zone.
 *
 * - Dates are read in the user's zone. chrono-node works in JS Dates, whose local fields are the
 *   machine's: it is given a 'floating' reference, a Date whose local fields are the user's
 *   wall clock now, and only the date and time fields of its answer are read back, which Temporal
 *   then places in the user's zone ('compatible', as the dialog does). Relative times ('in 2
 *   hours') are read here, exactly, from the instant `now`.
 * - Repeats only as the app stores them (validation.ts recurrenceRules: daily, weekly, monthly,
 *   until a day). A repeat phrase the app cannot express ('every 2nd tuesday', 'weekdays',
 *   'every tuesday and thursday', 'yearly') is named in `notUnderstood`, never guessed.
 * - Task or event as the dialog's model has them: a task has one due moment (or none), a priority
 *   and no repeat; an event needs a start. So no date, a priority or 'due' make a task; a repeat
 *   or a range of times make an event; a repeat wins over a priority (said in notUnderstood).
 * - 'next monday' is the Monday of the week after this one, weeks starting on `weekStart` (the
 *   calendar's Monday unless told).
 */
// English only: the whole package holds 16 languages' parsers.
import * as chrono from 'chrono-node/en';
import { Temporal } from 'temporal-polyfill';
import { allDayRange, instantOfWallClock, safeTimeZone } from './event-times.ts';
import { cutText, storableText } from './storable-text.ts';
import {
  weekdayOf,
  UNSUPPORTED_REPEATS,
  SUPPORTED_REPEATS,
  PRIORITY,
  PRIORITY_OF,
  RELATIVE,
  UNTIL,
  NEXT_WEEKDAY,
  DUE,
  ON_THE_DAY,
  blank,
  cleanTitle,
  amount,
  onOrAfterWeekday,
  onOrAfterMonthDay,
  nextWeekday,
  plainDateOf,
  clockOf,
  hasDate,
  type Found,
} from './plain-words-phrases.ts';
import type { Priority, RecurrenceRule } from './validation.ts';

export interface PlanOptions {
  /** The current moment: an instant or epoch milliseconds. */
  now: Temporal.Instant | number;
  /** The user's IANA zone (the profile's); UTC when unknown. */
  timeZone: string;
  /** The first day of the week, ISO numbering (1 Monday ... 7 Sunday); Monday by default. */
  weekStart?: number;
  /** Numeric dates day first ('3/4' is 3 April), as the user's locale writes them; month first by default. */
  dayFirst?: boolean;
}

export interface PlanReading {
  title: string;
  /**
   * ISO instants (`toISOString` form) as the item would store them: an all-day item starts at its
   * first day's start in the zone and ends at the start of the day after its last; a task ends at
   * its start.
   */
  start?: string;
  end?: string;
  allDay: boolean;
  isTask: boolean;
  priority?: Priority;
  repeat?: RecurrenceRule;
  /** 'YYYY-MM-DD', inclusive, in the zone. */
  until?: string;
  /** The phrases read, in the order they were found. */
  understood: string[];
  /** What the preview must say was not read ('No date found', "Repeats: not understood: '...'"). */
  notUnderstood: string[];
}

/** The longest text read: a title is short, and a long paste must stay fast. */
export const PLAN_TEXT_MAX = 300;

export const NO_DATE = 'No date found';
export const notUnderstoodRepeat = (phrase: string) => `Repeats: not understood: '${phrase}'`;
export const notUnderstoodUntil = (phrase: string) => `Until: not understood: '${phrase}'`;
export const END_NEEDS_EVENT = 'End: not kept, a task has only a due time';
export const PRIORITY_NEEDS_TASK = 'Priority: not kept, a repeating item is an event and only tasks have one';

const pad = (value: number) => String(value).padStart(2, '0');

/** The input as the parser reads it: storable (no NUL, no lone surrogate), one line, bounded. */
function readable(text: string): string {
  return cutText(
    storableText(String(text))
      // eslint-disable-next-line no-control-regex -- tabs, newlines and other controls read as spaces
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .trim(),
    PLAN_TEXT_MAX,
  );
}

/** A Date whose machine-local fields are the wall clock `zoned` shows (chrono's reference). */
function floatingDate(zoned: Temporal.ZonedDateTime): Date {
  return new Date(zoned.year, zoned.month - 1, zoned.day, zoned.hour, zoned.minute, zoned.second);
}

/** When the text says it: an exact instant, or a day with or without a clock time, and an end. */
type When =
  | { kind: 'instant'; epochMs: number }
  | {
      kind: 'local';
      date: Temporal.PlainDate;
      /** Only a clock time was given (the date is chrono's next such time, or a repeat's day). */
      timeOnly?: boolean;
      time?: Temporal.PlainTime;
      endDate?: Temporal.PlainDate;
      endTime?: Temporal.PlainTime;
    };

const toIso = (epochMs: number) => new Date(epochMs).toISOString();
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * Reads a plan typed in plain words (docs/product.md, Calendar 'Type a plan'). Never throws: text
 * it cannot read becomes the title, and `notUnderstood` says what was not read.
 */
export function readPlan(input: string, options: PlanOptions): PlanReading {
  const zone = safeTimeZone(options.timeZone);
  const nowMs = typeof options.now === 'number' ? options.now : options.now.epochMilliseconds;
  const weekStart =
    Number.isInteger(options.weekStart) && options.weekStart! >= 1 && options.weekStart! <= 7 ? options.weekStart! : 1;
  const nowZoned = Temporal.Instant.fromEpochMilliseconds(nowMs).toZonedDateTimeISO(zone);
  const today = nowZoned.toPlainDate();
  const understood: { at: number; text: string }[] = [];
  const notUnderstood: string[] = [];
  let text = readable(input);
  const read = (index: number, phrase: string) => {
    understood.push({ at: index, text: phrase.replace(/\s+/g, ' ').trim() });
    text = blank(text, index, phrase.length);
  };

  // Priority markers: the last one counts.
  let priority: Priority | undefined;
  for (const match of Array.from(text.matchAll(PRIORITY))) {
    const marker = match[1] ?? '';
    priority = PRIORITY_OF[marker.toLowerCase()];
    read((match.index ?? 0) + match[0].length - marker.length, marker);
  }

  // Repeats: the unsupported ones are named, never read as a nearby supported one.
  let repeat: Found | undefined;
  let refused = false;
  for (const pattern of UNSUPPORTED_REPEATS) {
    const match = pattern.exec(text);
    if (!match) continue;
    notUnderstood.push(notUnderstoodRepeat(match[0].trim()));
    text = blank(text, match.index, match[0].length);
    refused = true;
  }
  if (!refused) {
    for (const { pattern, read: readRepeat } of SUPPORTED_REPEATS) {
      const match = pattern.exec(text);
      if (!match) continue;
      repeat = readRepeat(match);
      read(match.index, match[0]);
      break;
    }
  }

  const reference = floatingDate(nowZoned);
  const parse = (value: string) => {
    try {
      return (options.dayFirst ? chrono.GB : chrono.casual).parse(value, reference, { forwardDate: true });
    } catch {
      return [];
    }
  };

  // Until: the date right after the word.
  let untilDate: Temporal.PlainDate | undefined;
  const untilMatch = UNTIL.exec(text);
  if (untilMatch) {
    const after = untilMatch.index + untilMatch[0].length;
    const [result] = parse(text.slice(after).trimEnd());
    const date = result && result.index === 0 ? plainDateOf(result.start) : null;
    if (result && date && hasDate(result.start)) {
      untilDate = date;
      read(untilMatch.index, text.slice(untilMatch.index, after + result.text.length));
    } else {
      // Said with the next three words at most, which leave the title.
      const words = /^\s*\S+(?:\s+\S+){0,2}/.exec(text.slice(after))?.[0] ?? '';
      notUnderstood.push(notUnderstoodUntil(words.replace(/\s+/g, ' ').trim()));
      text = blank(text, untilMatch.index, untilMatch[0].length + words.length);
    }
  }

  const due = DUE.exec(text);
  let when: When | undefined;
  const relative = RELATIVE.exec(text);
  if (relative) {
    const count = amount(relative[1] ?? relative[3] ?? '1');
    const unit = (relative[2] ?? relative[4] ?? '').toLowerCase();
    if (unit.startsWith('m')) when = { kind: 'instant', epochMs: nowMs + count * MINUTE_MS };
    else if (unit.startsWith('h')) when = { kind: 'instant', epochMs: nowMs + count * HOUR_MS };
    else {
      const days = unit.startsWith('w') ? Math.round(count * 7) : Math.round(count);
      when = { kind: 'local', date: today.add({ days }) };
    }
    read(relative.index, relative[0]);
    // 'in 3 days at 10:00': the day from here, the time from chrono.
    const clock = when.kind === 'local' ? parse(text).find((result) => result.start.isCertain('hour')) : undefined;
    if (when.kind === 'local' && clock && !hasDate(clock.start)) {
      when = { ...when, time: clockOf(clock.start) };
      read(clock.index, clock.text);
    }
  }

  if (!when) {
    const next = NEXT_WEEKDAY.exec(text);
    // The longest date in the text: 'Night train sunday 2:30' is about Sunday, not tonight.
    const result = parse(text).reduce<chrono.ParsedResult | undefined>(
      (longest, candidate) => (longest && longest.text.length >= candidate.text.length ? longest : candidate),
      undefined,
    );
    if (result) {
      const start = result.start;
      let date = plainDateOf(start);
      const dated = hasDate(start);
      const timed = start.isCertain('hour');
      const nextInside = next && next.index >= result.index && next.index < result.index + result.text.length;
      if (nextInside) date = nextWeekday(today, weekdayOf(next[1] ?? ''), weekStart);
      if (date) {
        const endDate = result.end ? plainDateOf(result.end) : null;
        when = {
          kind: 'local',
          date,
          timeOnly: !dated,
          ...(timed ? { time: clockOf(start) } : {}),
          ...(endDate ? { endDate } : {}),
          ...(result.end?.isCertain('hour') ? { endTime: clockOf(result.end) } : {}),
        };
        read(result.index, result.text);
      }
    } else if (next) {
      when = { kind: 'local', date: nextWeekday(today, weekdayOf(next[1] ?? ''), weekStart) };
      read(next.index, next[0]);
    }
  }

  // A repeat's day ('every tuesday', 'every month on the 1st'), or 'on the 5th', when the text names no date.
  let anchor = repeat?.anchor;
  const onTheDay = anchor ? null : ON_THE_DAY.exec(text);
  if (onTheDay) {
    anchor = { kind: 'monthDay', day: Number(onTheDay[1]) };
    read(onTheDay.index, onTheDay[0]);
  }
  if (anchor && (!when || (when.kind === 'local' && when.timeOnly))) {
    const local = when?.kind === 'local' ? when : undefined;
    const time = local?.time;
    // Today counts while its time (or, without one, the day) is still ahead.
    const from = time && Temporal.PlainTime.compare(time, nowZoned.toPlainTime()) <= 0 ? today.add({ days: 1 }) : today;
    const date = anchor.kind === 'weekday' ? onOrAfterWeekday(from, anchor.day) : onOrAfterMonthDay(from, anchor.day);
    if (date)
      when = { kind: 'local', date, ...(time ? { time } : {}), ...(local?.endTime ? { endTime: local.endTime } : {}) };
  }

  if (due && /^due$/i.test(text.slice(due.index, due.index + 3))) read(due.index, due[0]);
  const title = cleanTitle(text);
  const reading: PlanReading = {
    title,
    allDay: false,
    isTask: false,
    understood: understood.sort((a, b) => a.at - b.at).map(({ text: phrase }) => phrase),
    notUnderstood,
  };
  if (repeat) reading.repeat = repeat.rule;
  if (untilDate) reading.until = untilDate.toString();

  // Task or event (the dialog's model): no date, a priority or 'due' make a task; a repeat an event.
  const isTask = !when || ((priority !== undefined || due !== null) && !repeat);
  reading.isTask = isTask;
  if (priority !== undefined) {
    if (repeat) notUnderstood.push(PRIORITY_NEEDS_TASK);
    else reading.priority = priority;
  }
  if (!when) {
    notUnderstood.unshift(NO_DATE);
    return reading;
  }

  if (when.kind === 'instant') {
    const start = Math.floor(when.epochMs / MINUTE_MS) * MINUTE_MS;
    reading.start = toIso(start);
    reading.end = toIso(isTask ? start : start + HOUR_MS);
    return reading;
  }

  if (!when.time) {
    // Whole days: the last day is the end's, a year on when it falls before the start.
    let last = when.endDate ?? when.date;
    while (Temporal.PlainDate.compare(last, when.date) < 0) last = last.add({ years: 1 });
    if (isTask && when.endDate) notUnderstood.push(END_NEEDS_EVENT);
    const range = allDayRange(when.date.toString(), (isTask ? when.date : last).toString(), zone);
    if (range === 'invalid') return reading;
    reading.allDay = true;
    reading.start = range.starts_at;
    reading.end = isTask ? range.starts_at : range.ends_at;
    return reading;
  }

  if (isTask && (when.endTime || when.endDate)) notUnderstood.push(END_NEEDS_EVENT);
  const startLocal = when.date.toPlainDateTime(when.time);
  const start = instantOfWallClock(startLocal, zone);
  reading.start = start;
  if (isTask) {
    reading.end = start;
    return reading;
  }
  if (when.endTime) {
    let endLocal = (when.endDate ?? when.date).toPlainDateTime(when.endTime);
    // '22:00-01:00' ends the next day.
    if (Temporal.PlainDateTime.compare(endLocal, startLocal) <= 0)
      endLocal = when.date.add({ days: 1 }).toPlainDateTime(when.endTime);
    reading.end = instantOfWallClock(endLocal, zone);
  } else {
    reading.end = toIso(Date.parse(start) + HOUR_MS);
  }
  return reading;
}

/** 'YYYY-MM-DDTHH:mm' of an ISO instant in the zone (the dialog's field values). */
export function wallClock(instant: string, timeZone: string): string {
  const zoned = Temporal.Instant.from(instant).toZonedDateTimeISO(safeTimeZone(timeZone));
  return `${zoned.toPlainDate().toString()}T${pad(zoned.hour)}:${pad(zoned.minute)}`;
}
