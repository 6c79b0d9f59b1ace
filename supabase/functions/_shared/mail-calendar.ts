/**
 * The event a mail carries as `invite.ics` (docs/product.md, Find a time: the mail of a time poll's
 * pick): the `calendar` of its outgoing_mail row (supabase/schemas/mail_calendar.sql, queue_pick_mail) as an
 * RFC 5545 document with METHOD:PUBLISH and one VEVENT. Its UID is the poll's ('<poll id>@linkboard')
 * and its SEQUENCE the pick's count, so a calendar that imported the first pick replaces it with a
 * later one instead of adding a second event.
 *
 * A timed event is written in UTC ('...Z'); a whole day as dates (DTSTART;VALUE=DATE and the next
 * day as DTEND), its day in the poll's zone (the row's instants are that day's midnights there).
 * Escaping and folding at 75 octets are ical-generator's, as in the calendar export
 * (src/domain/ical/calendar-ics.ts). Pure: used by the sender on Node and on Deno alike.
 */
import { escape, ICalCalendar, ICalCalendarMethod } from 'ical-generator';
import { Temporal } from 'temporal-polyfill';
import { epochOf, safeTimeZone, zonedAtEpoch } from '../../../src/domain/event-times.ts';

/** outgoing_mail.calendar, as queued. */
export interface MailCalendar {
  uid: string;
  sequence: number;
  title: string;
  description: string | null;
  starts_at: string;
  ends_at: string;
  all_day: boolean;
  time_zone: string;
  url: string | null;
  method: 'PUBLISH';
}

export const MAIL_CALENDAR_FILENAME = 'invite.ics';
export const MAIL_CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8; method=PUBLISH';
const PROD_ID = '//Linkboard//Find a time//EN';

const isText = (value: unknown): value is string => typeof value === 'string';

/** The row's calendar when it is one this sender can write, else null (the mail then goes without it). */
export function mailCalendarOf(value: unknown): MailCalendar | null {
  if (typeof value !== 'object' || value === null) return null;
  const c = value as Record<string, unknown>;
  const ok =
    isText(c.uid) &&
    c.uid !== '' &&
    typeof c.sequence === 'number' &&
    Number.isInteger(c.sequence) &&
    c.sequence >= 0 &&
    isText(c.title) &&
    (c.description === null || c.description === undefined || isText(c.description)) &&
    epochOf(c.starts_at as string) !== null &&
    epochOf(c.ends_at as string) !== null &&
    typeof c.all_day === 'boolean' &&
    isText(c.time_zone) &&
    (c.url === null || c.url === undefined || isText(c.url)) &&
    c.method === 'PUBLISH';
  if (!ok) return null;
  return {
    uid: c.uid as string,
    sequence: c.sequence as number,
    title: c.title as string,
    description: (c.description as string | null | undefined) ?? null,
    starts_at: c.starts_at as string,
    ends_at: c.ends_at as string,
    all_day: c.all_day as boolean,
    time_zone: c.time_zone as string,
    url: (c.url as string | null | undefined) ?? null,
    method: 'PUBLISH',
  };
}

/** The local day of an instant in the zone, as midnight (ical-generator writes it as a DATE). */
const dayAt = (epochMs: number, zone: string) => zonedAtEpoch(epochMs, zone).toPlainDate().toPlainDateTime();

/** The invite.ics text (CRLF lines, folded at 75 octets). `now` is its DTSTAMP. */
export function buildMailCalendar(calendar: MailCalendar, now: Date = new Date()): string {
  const zone = safeTimeZone(calendar.time_zone);
  const startMs = epochOf(calendar.starts_at) ?? 0;
  const endMs = Math.max(epochOf(calendar.ends_at) ?? startMs, startMs);
  const ics = new ICalCalendar({ prodId: escape(PROD_ID, false), method: ICalCalendarMethod.PUBLISH });
  const url = calendar.url !== null && /^https?:\/\//i.test(calendar.url) ? calendar.url : null;
  const common = {
    id: calendar.uid,
    sequence: calendar.sequence,
    stamp: now,
    summary: calendar.title,
    description: calendar.description ? calendar.description : null,
    url,
  };
  if (calendar.all_day) {
    const start = dayAt(startMs, zone);
    const last = dayAt(endMs, zone);
    // DTEND is exclusive: the day after the last, at least one day.
    const end = Temporal.PlainDateTime.compare(last, start) > 0 ? last : start.add({ days: 1 });
    ics.createEvent({ ...common, allDay: true, start, end });
  } else {
    ics.createEvent({ ...common, start: new Date(startMs), end: new Date(endMs) });
  }
  // Every content line ends with CRLF (RFC 5545 3.1), the last one too.
  const text = ics.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}

/** A mail's attachment, as the sender attaches it and the local mailbox lists it. */
export interface MailAttachment {
  filename: string;
  content_type: string;
  content: string;
}

/** The attachments of a queued mail: its event as invite.ics when it carries one. */
export function mailAttachments(calendar: unknown, now: Date = new Date()): MailAttachment[] {
  const event = mailCalendarOf(calendar);
  if (event === null) return [];
  return [
    {
      filename: MAIL_CALENDAR_FILENAME,
      content_type: MAIL_CALENDAR_CONTENT_TYPE,
      content: buildMailCalendar(event, now),
    },
  ];
}
