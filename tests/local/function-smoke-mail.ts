/** The smoke cases of the mail and reminder functions: send-email, deliver-mail, send-reminders. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { NOT_JSON } from '../../supabase/functions/_shared/input.ts';
import { insertRow } from '../support/db.ts';
import { TEST_ANON_KEY, TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import {
  bearer,
  error,
  FORGED,
  noCors,
  preflight,
  wrongMethod,
  type CaseContext,
  type SmokeCase,
} from './function-smoke-cases.ts';
import { SUPPORT_EMAIL } from './function-smoke-stack.ts';

const FEED_GONE = 'This calendar feed does not exist or was turned off.';

export const mailCases: SmokeCase[] = [
  // send-email
  {
    fn: 'send-email',
    title: 'queues a visitor’s message to support',
    request: () => ({ method: 'POST', body: { to: SUPPORT_EMAIL, subject: 'Contact', body: 'From the form' } }),
    status: 200,
    body: { ok: true, id: expect.any(String) },
  },
  {
    fn: 'send-email',
    title: 'refuses an empty subject with 400',
    request: () => ({ method: 'POST', body: { to: SUPPORT_EMAIL, subject: '', body: 'x' } }),
    status: 400,
    body: error('A subject is required'),
  },
  {
    fn: 'send-email',
    title: 'refuses a subject with a NUL and a lone surrogate with 400',
    request: () => ({ method: 'POST', body: { to: SUPPORT_EMAIL, subject: 'Hi\u0000\ud800', body: 'x' } }),
    status: 400,
    body: error(
      'A character in subject cannot be saved (a null character or half of an emoji). Remove it and try again.',
    ),
  },
  {
    fn: 'send-email',
    title: 'refuses a body that is no JSON with 400',
    request: () => ({ method: 'POST', body: '{' }),
    status: 400,
    body: error(NOT_JSON),
  },
  {
    fn: 'send-email',
    title: 'refuses an invalid session with 401',
    request: () => ({
      method: 'POST',
      headers: bearer(FORGED),
      body: { to: SUPPORT_EMAIL, subject: 's', body: 'b' },
    }),
    status: 401,
    body: error('Invalid or expired session'),
  },
  wrongMethod('send-email', 'GET'),
  preflight('send-email', 'POST'),

  // deliver-mail
  {
    fn: 'deliver-mail',
    title: 'delivers the queue through the SMTP server',
    request: async (ctx) => {
      await queueMail(ctx);
      return { method: 'POST', headers: bearer(TEST_SERVICE_ROLE_KEY) };
    },
    status: 200,
    body: { sent: expect.any(Number), retried: 0, failed: 0 },
    check: (_response, ctx) => expect(ctx.stack.smtp.to(mailTo(ctx))).toHaveLength(1),
  },
  {
    fn: 'deliver-mail',
    title: 'attaches a time poll pick’s event as invite.ics (text/calendar)',
    request: async (ctx) => {
      await insertRow(ctx.stack.db, 'outgoing_mail', {
        to_address: `ics-${mailTo(ctx)}`,
        subject: 'Time picked: Dinner',
        body: 'Hello',
        calendar: JSON.stringify({
          uid: `${randomUUID()}@linkboard`,
          sequence: 1,
          title: 'Dinner',
          description: null,
          starts_at: '2031-12-03T09:00:00Z',
          ends_at: '2031-12-03T10:00:00Z',
          all_day: false,
          time_zone: 'Europe/Berlin',
          url: null,
          method: 'PUBLISH',
        }),
      });
      return { method: 'POST', headers: bearer(TEST_SERVICE_ROLE_KEY) };
    },
    status: 200,
    body: { sent: expect.any(Number), retried: 0, failed: 0 },
    check: (_response, ctx) => {
      const [mail] = ctx.stack.smtp.to(`ics-${mailTo(ctx)}`);
      expect(mail?.headers.get('content-type')).toMatch(/^multipart\/mixed/);
      expect(mail?.text).toMatch(/Content-Type: text\/calendar[^\n]*\n(?:[^\n]+\n)*?[^\n]*filename=invite\.ics/i);
    },
  },
  {
    fn: 'deliver-mail',
    title: 'refuses the anon key with 401',
    request: () => ({ method: 'POST', headers: bearer(TEST_ANON_KEY) }),
    status: 401,
    body: error('Unauthorized: send the service-role key or the MAIL_CRON_SECRET'),
  },
  wrongMethod('deliver-mail', 'GET', error('Method not allowed: deliver-mail takes POST')),
  noCors('deliver-mail'),
  // send-reminders
  {
    fn: 'send-reminders',
    title: 'pushes a due reminder to the owner’s device',
    request: async (ctx) => {
      const device = ctx.stack.push.subscription();
      await insertRow(ctx.stack.db, 'push_subscriptions', { user_id: ctx.fx.user.id, ...device });
      await insertRow(ctx.stack.db, 'calendar_events', {
        owner_id: ctx.fx.user.id,
        title: `Dentist ${ctx.runtime}`,
        starts_at: new Date(Date.now() + 15 * 60_000).toISOString(),
        reminder_minutes: 15,
      });
      return { method: 'POST', headers: bearer(TEST_SERVICE_ROLE_KEY) };
    },
    status: 200,
    body: { sent: 1, failed: 0, gone: 0 },
  },
  {
    fn: 'send-reminders',
    title: 'refuses a caller without a key with 401',
    request: () => ({ method: 'POST' }),
    status: 401,
    body: error('Unauthorized: send the service-role key or the REMINDERS_CRON_SECRET'),
  },
  wrongMethod('send-reminders', 'GET', error('Method not allowed: send-reminders takes POST')),
  noCors('send-reminders'),
  // calendar-feed
  {
    fn: 'calendar-feed',
    title: 'serves the owner’s calendar for the feed token',
    request: (ctx) => ({ query: `?token=${ctx.fx.feedToken}` }),
    status: 200,
    body: expect.stringMatching(/^BEGIN:VCALENDAR\r\n[\s\S]*END:VCALENDAR\r\n$/),
    check: (response) => expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8'),
  },
  {
    fn: 'calendar-feed',
    title: 'answers a malformed token as no feed (404), never 5xx',
    // A NUL and a lone surrogate's bytes, as a client could send them.
    request: () => ({ query: '?token=short%00%ED%A0%80' }),
    status: 404,
    body: FEED_GONE,
  },
  {
    fn: 'calendar-feed',
    title: 'answers no token as no feed (404)',
    request: () => ({}),
    status: 404,
    body: FEED_GONE,
  },
  wrongMethod('calendar-feed', 'POST', 'Method not allowed'),
  noCors('calendar-feed'),
];

const mailTo = (ctx: CaseContext) => `smoke-${ctx.runtime}@example.com`;

/** A mail in the queue for the runtime's own address, as the app queues it. */
async function queueMail(ctx: CaseContext): Promise<void> {
  await insertRow(ctx.stack.db, 'outgoing_mail', {
    to_address: mailTo(ctx),
    subject: `Smoke ${randomUUID()}`,
    body: 'Hello',
  });
}
