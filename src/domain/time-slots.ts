/**
 * 'Find a time' polls (docs/product.md, Find a time): a slot's label in the reader's zone (and the
 * creator's zone named beside it when it is another), the counts a card shows, the best slot, and
 * the slots the dialog's rows make. Pure: zones, the locale and ids are arguments.
 */
import { Temporal } from 'temporal-polyfill';
import { formatter, formatTime } from './date-format.ts';
import { allDayRange, instantOfWallClock, parseLocalInput, safeTimeZone } from './event-times.ts';
import { parseInstant, type SlotAnswer } from './validation.ts';

export const TIME_SLOTS_MIN = 2;
export const TIME_SLOTS_MAX = 30;
export const SLOT_MINUTES_MIN = 15;
export const SLOT_MINUTES_MAX = 24 * 60;

/** The lengths the dialog offers, in minutes, with their labels (docs/product.md, Find a time). */
export const SLOT_LENGTHS = [
  { minutes: 30, label: '30 min' },
  { minutes: 60, label: '1 hour' },
  { minutes: 90, label: '90 min' },
  { minutes: 120, label: '2 hours' },
  { minutes: 180, label: '3 hours' },
] as const;

/** A slot as a time poll's option stores it: a start (an instant) and minutes, or a day. */
export interface TimeSlot {
  id?: string | undefined;
  start?: string | null | undefined;
  minutes?: number | null | undefined;
  day?: string | null | undefined;
  yes?: number | undefined;
  maybe?: number | undefined;
  votes?: number | undefined;
}

/** A voter's answers row as the counts need it (the server's answers under an optimistic row: `local_base`). */
export interface AnswersOf {
  answers: Readonly<Record<string, SlotAnswer>>;
  local_base?: Readonly<Record<string, SlotAnswer>> | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isPlainDay(day: string): boolean {
  if (!DAY.test(day)) return false;
  try {
    Temporal.PlainDate.from(day, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

/** Whether a slot is a whole day. */
export function isWholeDay(slot: TimeSlot): boolean {
  return typeof slot.day === 'string' && slot.day !== '';
}

/**
 * A valid slot: a real day and nothing else, or an instant and a whole number of minutes from 15
 * to 24 hours ('A time slot must start at a valid time and last from 15 minutes to 24 hours.').
 */
export function isValidSlot(slot: TimeSlot): boolean {
  if (isWholeDay(slot)) return (slot.start ?? null) === null && isPlainDay(slot.day as string);
  const start = parseInstant(slot.start ?? null);
  const minutes = slot.minutes;
  return (
    typeof start === 'number' &&
    typeof minutes === 'number' &&
    Number.isInteger(minutes) &&
    minutes >= SLOT_MINUTES_MIN &&
    minutes <= SLOT_MINUTES_MAX
  );
}

/**
 * The instants a slot covers, as an event stores them: a whole day from its midnight in the
 * creator's zone to the next (docs/architecture.md, Calendar 'All-day items'); null when invalid.
 */
export function slotRange(
  slot: TimeSlot,
  creatorZone: string | null | undefined,
): { starts_at: string; ends_at: string; all_day: boolean } | null {
  if (!isValidSlot(slot)) return null;
  if (isWholeDay(slot)) {
    const range = allDayRange(slot.day as string, slot.day as string, safeTimeZone(creatorZone));
    return range === 'invalid' ? null : { ...range, all_day: true };
  }
  const start = parseInstant(slot.start ?? null) as number;
  return {
    starts_at: new Date(start).toISOString(),
    ends_at: new Date(start + (slot.minutes as number) * 60_000).toISOString(),
    all_day: false,
  };
}

const WEEKDAY_DATE: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };

function dayIn(epoch: number, zone: string, locale?: string): string {
  return formatter({ ...WEEKDAY_DATE, timeZone: zone }, locale).format(epoch);
}

function timesIn(start: number, end: number, zone: string, locale?: string): string {
  return `${formatTime(new Date(start), zone, locale)}–${formatTime(new Date(end), zone, locale)}`;
}

export interface SlotLabel {
  /** The slot in the reader's zone: 'Mon, 16 Mar, 09:00–10:00', or 'Wed, 18 Mar, All day'. */
  when: string;
  /** The creator's times when their zone is another: '09:00–10:00 in Europe/London'; else null. */
  creator: string | null;
}

/** How a slot reads in `zone` (docs/product.md, Find a time); a whole day is that day everywhere. */
export function slotLabel(
  slot: TimeSlot,
  zone: string,
  creatorZone: string | null | undefined,
  locale?: string,
): SlotLabel {
  if (isWholeDay(slot)) {
    const day = Date.parse(`${slot.day as string}T12:00:00Z`);
    return { when: `${Number.isNaN(day) ? '' : dayIn(day, 'UTC', locale)}, All day`, creator: null };
  }
  const range = slotRange(slot, creatorZone);
  if (!range) return { when: '', creator: null };
  const reader = safeTimeZone(zone);
  const start = Date.parse(range.starts_at);
  const end = Date.parse(range.ends_at);
  const endDay = dayIn(end - 1, reader, locale);
  const sameDay = endDay === dayIn(start, reader, locale);
  const when = sameDay
    ? `${dayIn(start, reader, locale)}, ${timesIn(start, end, reader, locale)}`
    : `${dayIn(start, reader, locale)}, ${formatTime(new Date(start), reader, locale)}–${endDay}, ${formatTime(new Date(end), reader, locale)}`;
  const own = creatorZone ? safeTimeZone(creatorZone) : null;
  const creator = own !== null && own !== reader ? `${timesIn(start, end, own, locale)} in ${own}` : null;
  return { when, creator };
}

export interface SlotCount {
  yes: number;
  maybe: number;
}

function countOf(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function weight(answer: SlotAnswer | undefined, wanted: SlotAnswer): number {
  return answer === wanted ? 1 : 0;
}

/**
 * Each slot's Yes and If need be counts as shown: the server's counts, adjusted by the user's own
 * row: its answers minus `local_base` (the server's answers, already counted, under a row not yet
 * confirmed), so a pending answer is counted once. A row from the server has no `local_base`: its
 * answers are in the counts already.
 */
export function slotCounts(slots: readonly TimeSlot[], mine: AnswersOf | undefined): SlotCount[] {
  return slots.map((slot) => {
    const yes = countOf(slot.yes ?? slot.votes);
    const maybe = countOf(slot.maybe);
    if (!mine?.local_base || slot.id === undefined) return { yes, maybe };
    const now = mine.answers[slot.id];
    const base = mine.local_base[slot.id];
    return {
      yes: Math.max(0, yes + weight(now, 'yes') - weight(base, 'yes')),
      maybe: Math.max(0, maybe + weight(now, 'maybe') - weight(base, 'maybe')),
    };
  });
}

/** The instant a slot starts at, for ordering (a day at its midnight in the creator's zone). */
export function slotStart(slot: TimeSlot, creatorZone: string | null | undefined): number {
  const range = slotRange(slot, creatorZone);
  return range ? Date.parse(range.starts_at) : Infinity;
}

/**
 * The index of the best slot: the most Yes, then the most If need be, then the earliest; null
 * while nobody has said Yes or If need be to any slot.
 */
export function bestSlot(
  slots: readonly TimeSlot[],
  counts: readonly SlotCount[],
  creatorZone: string | null | undefined,
): number | null {
  let best: number | null = null;
  for (let index = 0; index < slots.length; index += 1) {
    const count = counts[index];
    if (!count || count.yes + count.maybe === 0) continue;
    if (best === null) {
      best = index;
      continue;
    }
    const top = counts[best] as SlotCount;
    const better =
      count.yes !== top.yes
        ? count.yes > top.yes
        : count.maybe !== top.maybe
          ? count.maybe > top.maybe
          : slotStart(slots[index] as TimeSlot, creatorZone) < slotStart(slots[best] as TimeSlot, creatorZone);
    if (better) best = index;
  }
  return best;
}

/** One row of the dialog's slot editor: a date, a time and a length, or a whole day. */
export interface SlotInput {
  /** 'YYYY-MM-DD' */
  date: string;
  /** 'HH:mm' (ignored for a whole day) */
  time: string;
  minutes: number;
  allDay: boolean;
}

/**
 * The slots of the dialog's rows, read in the creator's zone, earliest first; null when a row is
 * not a valid slot. `makeId` names each slot.
 */
export function slotsFromInput(
  rows: readonly SlotInput[],
  timeZone: string,
  makeId: () => string,
): { id: string; start: string | null; minutes: number | null; day: string | null }[] | null {
  const slots: { id: string; start: string | null; minutes: number | null; day: string | null }[] = [];
  for (const row of rows) {
    if (row.allDay) {
      if (!isPlainDay(row.date)) return null;
      slots.push({ id: makeId(), start: null, minutes: null, day: row.date });
      continue;
    }
    const local = parseLocalInput(`${row.date}T${row.time}`);
    if (local === null) return null;
    const slot = { id: makeId(), start: instantOfWallClock(local, timeZone), minutes: row.minutes, day: null };
    if (!isValidSlot(slot)) return null;
    slots.push(slot);
  }
  return slots
    .map((slot, index) => ({ slot, index, at: slotStart(slot, timeZone) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ slot }) => slot);
}
