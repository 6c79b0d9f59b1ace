/**
 * The user's calendar rows as an RFC 5545 iCalendar document, for the '.ics download' (browser)
 * and the calendar feed (local server, Node). Pure and isomorphic: no Node or DOM APIs, the clock
 * only through `options.now`, zone data from the runtime's Intl (through temporal-polyfill).
 *
 * What becomes what:
 * - An event becomes a VEVENT: UID '<id>@linkboard', DTSTAMP, DTSTART/DTEND, SUMMARY, DESCRIPTION,
 *   URL when the title or description is an http(s) URL, CREATED/LAST-MODIFIED. An event without
 *   a start (starts_at null or unreadable) is left out: a VEVENT needs a DTSTART (RFC 5545
 *   3.6.1, for a calendar without METHOD), and such an event has no day to show it on.
 * - A task becomes a VTODO (vtodo.ts), with DUE when it has a start and without when it has none.
 * - A series becomes one VEVENT with an RRULE and EXDATEs, or one VEVENT per occurrence when its
 *   rows cannot be said as a rule (series-plan.ts). Its UID is '<series_id>@linkboard', so it
 *   stays the same when its first occurrence is deleted. A detached occurrence is an ordinary
 *   event with its own UID; its original start is an EXDATE of the series.
 *
 * Time zones. A single event, an occurrence written on its own and a task are one instant each,
 * so they are written in UTC ('...Z'): exact in every reader and independent of zone data. A
 * series is written in the user's zone (DTSTART;TZID=...), because the app keeps its wall-clock
 * time across daylight-saving changes: an RRULE in UTC would move a 09:00 Berlin meeting to 10:00
 * for half the year. A TZID needs a VTIMEZONE in the file (RFC 5545 3.2.19), and ical-generator
 * has no zone database: its calendar `timezone` option takes a `generator(tzid)` returning the
 * VTIMEZONE text (README 'Date, Time & Timezones'). We give it `buildVtimezone`, which lists the
 * zone's transitions over the exported series (vtimezone.ts), and pass the calendar `timezone`
 * with name null: a calendar-level name would make ical-generator write DTSTAMP, CREATED and the
 * RRULE UNTIL as local times without 'Z' (they must be UTC) and add X-WR-TIMEZONE, which some
 * readers apply to UTC times as well; only the series VEVENTs carry the zone, through their own
 * `timezone`. Dates go to ical-generator as Temporal.ZonedDateTime: given a Date and a zone it
 * would format the Date in the machine's zone, not the user's. An unknown zone counts as UTC
 * (safeTimeZone, docs/product.md, Plans and limits); in UTC a series needs no VTIMEZONE.
 *
 * All-day items (all_day: starts_at the local midnight of the first day, ends_at the one after
 * the last, docs/architecture.md) are dates, not instants: 'DTSTART;VALUE=DATE:20261127' and
 * 'DTEND;VALUE=DATE:20261128' (the day after, exclusive), their days in the user's zone, and need
 * no VTIMEZONE. An all-day series writes its UNTIL as a DATE too (RFC 5545 3.3.10: UNTIL has
 * DTSTART's value type), which ical-generator cannot, so its RRULE and EXDATE lines are ours.
 *
 * A reminder (reminder_minutes) is a VALARM with ACTION:DISPLAY and 'TRIGGER:-PT15M' (valarm.ts).
 *
 * Text is escaped (commas, semicolons, backslashes, newlines) and lines are folded at 75 octets
 * without splitting a UTF-8 sequence, both by ical-generator's own helpers.
 */
import { Temporal } from 'temporal-polyfill';
import {
  escape,
  foldLines,
  ICalAlarmType,
  ICalCalendar,
  ICalEventRepeatingFreq,
  type ICalEventData,
} from 'ical-generator';
import { epochOf, safeTimeZone, zonedAtEpoch } from '../event-times.ts';
import type { RecurrenceRule } from '../validation.ts';
import { urlOf, type CalendarRow } from './calendar-row.ts';
import { planSeries, type SeriesPlan } from './series-plan.ts';
import { reminderOf } from './valarm.ts';
import { buildVtimezone } from './vtimezone.ts';
import { buildVtodo } from './vtodo.ts';

export type { CalendarRow } from './calendar-row.ts';

export interface CalendarIcsOptions {
  /** The user's IANA zone; unknown or empty counts as UTC. */
  timeZone: string;
  /** NAME and X-WR-CALNAME. */
  calendarName: string;
  /** The PRODID value; ical-generator always writes it after a leading '-'. */
  prodId?: string;
  /** DTSTAMP of every component; defaults to the current time. */
  now?: Date;
}

export const DEFAULT_PROD_ID = '-//Linkboard//Calendar//EN';
export const UID_DOMAIN = 'linkboard';

const END_CALENDAR = 'END:VCALENDAR';

const FREQUENCIES: Record<RecurrenceRule, ICalEventRepeatingFreq> = {
  daily: ICalEventRepeatingFreq.DAILY,
  weekly: ICalEventRepeatingFreq.WEEKLY,
  monthly: ICalEventRepeatingFreq.MONTHLY,
};

/** The UID of a row or series id. */
export const uidOf = (id: string): string => `${id}@${UID_DOMAIN}`;

interface Sorted {
  tasks: CalendarRow[];
  events: CalendarRow[];
  series: Map<string, CalendarRow[]>;
}

/** Tasks, single events (timed only) and series (grouped by series_id), in input order. */
function sortRows(rows: readonly CalendarRow[]): Sorted {
  const sorted: Sorted = { tasks: [], events: [], series: new Map() };
  for (const row of rows) {
    if (row.is_task) sorted.tasks.push(row);
    else if (epochOf(row.starts_at) === null) continue;
    else if (row.series_id === null || row.recurrence_rule === 'none') sorted.events.push(row);
    else sorted.series.set(row.series_id, [...(sorted.series.get(row.series_id) ?? []), row]);
  }
  return sorted;
}

const dateOf = (instant: string | null | undefined): Date | null => {
  const time = epochOf(instant);
  return time === null ? null : new Date(time);
};

/** What every VEVENT of the row carries besides its times: text, stamps and its reminder. */
function eventText(row: CalendarRow, stamp: Date): Partial<ICalEventData> {
  const minutes = reminderOf(row);
  return {
    alarms: minutes === null ? [] : [{ type: ICalAlarmType.display, trigger: minutes * 60, description: row.title }],
    stamp,
    summary: row.title,
    description: row.description ? row.description : null,
    url: urlOf(row),
    created: dateOf(row.created_at),
    lastModified: dateOf(row.updated_at),
  };
}

/** The end when it is after the start (RFC 5545 3.8.2.2); none means the event ends as it starts. */
function endAfter(startMs: number, end: string | null): number | null {
  const endMs = epochOf(end);
  return endMs !== null && endMs > startMs ? endMs : null;
}

/** The local day of an instant in the zone, as midnight (ical-generator writes it as a DATE). */
const dayAt = (epochMs: number, zone: string): Temporal.PlainDateTime =>
  zonedAtEpoch(epochMs, zone).toPlainDate().toPlainDateTime();

/** An all-day row's first day and the day after its last (DTEND is exclusive); at least one day. */
function allDayDates(row: CalendarRow, zone: string): { start: Temporal.PlainDateTime; end: Temporal.PlainDateTime } {
  const start = dayAt(epochOf(row.starts_at) ?? 0, zone);
  const endMs = epochOf(row.ends_at);
  const end = endMs === null ? null : dayAt(endMs, zone);
  return { start, end: end !== null && Temporal.PlainDateTime.compare(end, start) > 0 ? end : start.add({ days: 1 }) };
}

/** One event or stored occurrence as a VEVENT: in UTC, or as dates in the zone when all-day. */
function addSingle(calendar: ICalCalendar, row: CalendarRow, stamp: Date, zone: string): void {
  const startMs = epochOf(row.starts_at);
  if (startMs === null) return;
  if (row.all_day) {
    calendar.createEvent({ ...eventText(row, stamp), id: uidOf(row.id), allDay: true, ...allDayDates(row, zone) });
    return;
  }
  const endMs = endAfter(startMs, row.ends_at);
  calendar.createEvent({
    ...eventText(row, stamp),
    id: uidOf(row.id),
    start: new Date(startMs),
    end: endMs === null ? null : new Date(endMs),
  });
}

const basicDate = (date: Temporal.PlainDate | Temporal.PlainDateTime | string): string =>
  date.toString().slice(0, 10).replaceAll('-', '');

/** An all-day series: DATE start and end, and RRULE/EXDATE lines with DATE values. */
function addAllDayRule(calendar: ICalCalendar, plan: RulePlan, zone: string, stamp: Date) {
  const { first } = plan;
  const byMonthDay = plan.byMonthDay === null ? '' : `;BYMONTHDAY=${plan.byMonthDay.join(',')}`;
  const lines = [`RRULE:FREQ=${FREQUENCIES[plan.rule]};UNTIL=${basicDate(plan.untilDay)}${byMonthDay}`];
  const exdates = plan.exdates.map((epochMs) => basicDate(dayAt(epochMs, zone)));
  if (exdates.length > 0) lines.push(`EXDATE;VALUE=DATE:${exdates.join(',')}`);
  calendar.createEvent({
    ...eventText(first, stamp),
    id: uidOf(first.series_id ?? first.id),
    allDay: true,
    ...allDayDates(first, zone),
    repeating: lines.join('\r\n'),
  });
}

type RulePlan = Extract<SeriesPlan, { kind: 'rule' }>;

/** A series as one VEVENT with RRULE and EXDATEs, in the user's zone. */
function addRule(calendar: ICalCalendar, plan: RulePlan, zone: string, stamp: Date) {
  if (plan.first.all_day) {
    addAllDayRule(calendar, plan, zone, stamp);
    return;
  }
  const zoned = (epochMs: number) => Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);
  const { first } = plan;
  const startMs = epochOf(first.starts_at) ?? 0;
  const endMs = endAfter(startMs, first.ends_at);
  calendar.createEvent({
    ...eventText(first, stamp),
    id: uidOf(first.series_id ?? first.id),
    timezone: zone,
    start: zoned(startMs),
    end: endMs === null ? null : zoned(endMs),
    repeating: {
      freq: FREQUENCIES[plan.rule],
      until: plan.until,
      ...(plan.byMonthDay === null ? {} : { byMonthDay: plan.byMonthDay }),
      ...(plan.exdates.length === 0 ? {} : { exclude: plan.exdates.map(zoned) }),
    },
  });
}

/** The instants the VTIMEZONE must cover: every timed series' first start to its last end; null if none. */
function ruleSpan(plans: readonly SeriesPlan[]): { from: number; to: number } | null {
  let span: { from: number; to: number } | null = null;
  for (const plan of plans) {
    if (plan.kind !== 'rule' || plan.first.all_day) continue;
    const from = epochOf(plan.first.starts_at) ?? 0;
    const length = Math.max(0, (epochOf(plan.first.ends_at) ?? from) - from);
    const to = plan.until.getTime() + length;
    span = span === null ? { from, to } : { from: Math.min(span.from, from), to: Math.max(span.to, to) };
  }
  return span;
}

/** The iCalendar document (CRLF lines, folded) of the rows, in the user's zone. */
export function buildCalendarIcs(rows: readonly CalendarRow[], options: CalendarIcsOptions): string {
  const zone = safeTimeZone(options.timeZone);
  const stamp = options.now ?? new Date();
  const { tasks, events, series } = sortRows(rows);
  const plans = [...series.values()].map((group) => planSeries(group, zone));
  const span = ruleSpan(plans);

  const calendar = new ICalCalendar({
    prodId: escape((options.prodId ?? DEFAULT_PROD_ID).replace(/^-/, ''), false),
    name: escape(options.calendarName, false),
  });
  if (span !== null) calendar.timezone({ name: null, generator: (tz) => buildVtimezone(tz, span.from, span.to) });

  for (const row of events) addSingle(calendar, row, stamp, zone);
  for (const plan of plans) {
    if (plan.kind === 'rule') addRule(calendar, plan, zone, stamp);
    else for (const row of plan.rows) addSingle(calendar, row, stamp, zone);
  }

  const todos = tasks.map((row) => `${foldLines(buildVtodo(row, uidOf(row.id), stamp, zone))}\r\n`);
  const document = calendar.toString();
  return `${document.slice(0, -END_CALENDAR.length)}${todos.join('')}${END_CALENDAR}\r\n`;
}
