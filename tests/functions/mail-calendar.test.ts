/**
 * The event a time poll's pick mails as invite.ics (supabase/functions/_shared/mail-calendar.ts;
 * docs/product.md, Find a time): parsed back with ical.js, and its lines as RFC 5545 wants them
 * (CRLF, folded at 75 octets, UTC times or a whole day's dates, SUMMARY escaped); and sent by the
 * SMTP sender as a text/calendar attachment to a real SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import {
  buildMailCalendar,
  mailAttachments,
  mailCalendarOf,
  type MailCalendar,
} from '../../supabase/functions/_shared/mail-calendar.ts';
import { smtpSender } from '../../supabase/functions/_shared/smtp-sender.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../e2e/support/smtp.ts';

const NOW = new Date('2031-11-20T08:00:00Z');
const timed: MailCalendar = {
  uid: '6f1c1d3e-3c55-4a57-9d0e-2b7b0d1c9a10@linkboard',
  sequence: 2,
  title: 'Dinner; with, friends',
  description: `Bring ${'a very long line of text '.repeat(8)}and snacks ☕☕☕`,
  starts_at: '2031-12-03T09:00:00Z',
  ends_at: '2031-12-03T10:30:00Z',
  all_day: false,
  time_zone: 'Europe/Berlin',
  url: 'https://app.example/Voting',
  method: 'PUBLISH',
};
const wholeDay: MailCalendar = {
  ...timed,
  title: 'Offsite',
  description: null,
  // Berlin's midnight of 4 December to the next.
  starts_at: '2031-12-03T23:00:00Z',
  ends_at: '2031-12-04T23:00:00Z',
  all_day: true,
  sequence: 1,
};

const eventOf = (ics: string) => {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return { calendar, event: calendar.getFirstSubcomponent('vevent')! };
};

describe('invite.ics', () => {
  it('parses back to the picked event: UID, SEQUENCE, METHOD, times in UTC, text', () => {
    const ics = buildMailCalendar(timed, NOW);
    const { calendar, event } = eventOf(ics);
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(event.getFirstPropertyValue('uid')).toBe(timed.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(2);
    expect(event.getFirstPropertyValue('summary')).toBe('Dinner; with, friends');
    expect(event.getFirstPropertyValue('description')).toBe(timed.description);
    expect(event.getFirstPropertyValue('url')).toBe('https://app.example/Voting');
    expect((event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(
      '2031-12-03T09:00:00.000Z',
    );
    expect((event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString()).toBe(
      '2031-12-03T10:30:00.000Z',
    );
  });

  it('writes RFC 5545 lines: CRLF, folded at 75 octets, UTC times, SUMMARY escaped', () => {
    const ics = buildMailCalendar(timed, NOW);
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = ics.split('\r\n');
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    expect(lines).toContain('METHOD:PUBLISH');
    expect(lines).toContain(`UID:${timed.uid}`);
    expect(lines).toContain('SEQUENCE:2');
    expect(lines).toContain('DTSTART:20311203T090000Z');
    expect(lines).toContain('DTEND:20311203T103000Z');
    expect(lines).toContain('SUMMARY:Dinner\\; with\\, friends');
  });

  it('writes a whole day as its date in the poll’s zone, the next day as DTEND', () => {
    const ics = buildMailCalendar(wholeDay, NOW);
    const lines = ics.split('\r\n');
    expect(lines).toContain('DTSTART;VALUE=DATE:20311204');
    expect(lines).toContain('DTEND;VALUE=DATE:20311205');
    expect(lines.some((line) => line.startsWith('DESCRIPTION'))).toBe(false);
    const { event } = eventOf(ics);
    expect((event.getFirstPropertyValue('dtstart') as ICAL.Time).isDate).toBe(true);
  });

  it('attaches only a calendar it can write', () => {
    expect(mailAttachments(null)).toEqual([]);
    expect(mailAttachments({ ...timed, method: 'REQUEST' })).toEqual([]);
    expect(mailAttachments({ ...timed, starts_at: 'soon' })).toEqual([]);
    expect(mailCalendarOf({ ...timed, description: undefined, url: undefined })).toMatchObject({
      description: null,
      url: null,
    });
    const [file] = mailAttachments(timed, NOW);
    expect(file).toMatchObject({
      filename: 'invite.ics',
      content_type: 'text/calendar; charset=utf-8; method=PUBLISH',
    });
    expect(file!.content).toBe(buildMailCalendar(timed, NOW));
  });
});

describe('the SMTP sender', () => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
  });
  afterAll(() => smtp.close());

  it('sends a pick’s mail with invite.ics as a text/calendar attachment, and other mail without', async () => {
    const send = smtpSender(`smtp://127.0.0.1:${smtp.port}`);
    await send({
      id: '0b9a7c1e-2f4d-4c8e-9a1b-3c5d7e9f1a2b',
      to_address: 'guest@example.com',
      subject: 'Time picked: Dinner',
      body: 'It is set.',
      attempts: 1,
      calendar: timed,
    });
    await send({
      id: '1b9a7c1e-2f4d-4c8e-9a1b-3c5d7e9f1a2b',
      to_address: 'plain@example.com',
      subject: 'Hi',
      body: 'x',
      attempts: 1,
    });
    const [mail] = smtp.to('guest@example.com');
    expect(mail!.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    const raw = mail!.text;
    const part = raw.split(/\n--/).find((chunk) => /content-type: text\/calendar/i.test(chunk));
    expect(part).toBeDefined();
    expect(part).toMatch(/filename=invite\.ics/i);
    const [headers, ...body] = part!.split('\n\n');
    const encoded = body.join('\n\n').trim();
    const content = /base64/i.test(headers!)
      ? Buffer.from(encoded.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoded
          .replace(/=\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const { event } = eventOf(content);
    expect(event.getFirstPropertyValue('uid')).toBe(timed.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(2);
    // Plain mail stays a single text part.
    const [plain] = smtp.to('plain@example.com');
    expect(plain!.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(plain!.text).toBe('x');
  });
});
