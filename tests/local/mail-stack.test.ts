/**
 * The local stack: with an SMTP_URL it delivers the queue itself in the
 * background (through deliver-mail), its mailbox is off, and close() stops the rounds; the
 * settings come from the environment with clear refusals of bad values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, mailboxModeFrom, type RunningStack } from '../../supabase/local/server.ts';
import { mailSettingsFrom } from '../../supabase/local/mail-settings.ts';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../e2e/support/smtp.ts';
import { openVerifyLink } from '../support/confirm-email.ts';
import { TEST_JWT_SECRET } from '../support/test-keys.ts';
import { freshDb } from '../support/db.ts';
import { uniqueEmail } from './stack.ts';

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('the local stack with an SMTP server', () => {
  let smtp: SmtpTestServer;
  let stack: RunningStack;
  beforeAll(async () => {
    smtp = await startSmtpTestServer({ failFirst: 1 });
    stack = await startStack({
      db: await freshDb(),
      port: 0,
      jwtSecret: TEST_JWT_SECRET,
      mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, retryBaseMs: 100 },
      drainerTiming: { firstMs: 10, busyMs: 100, idleMs: 200 },
    });
  });
  afterAll(async () => {
    await stack.close();
    await stack.db.close();
    await smtp.close();
  });

  it('delivers the confirmation mail of a sign-up once, through a first refusal, and its link confirms', async () => {
    const email = uniqueEmail('smtp');
    const client = serverClient(stack.url, stack.keys.anonKey, fetch);
    const { error } = await client.auth.signUp({ email, password: 'password1' });
    expect(error).toBeNull();

    await until(() => smtp.to(email).length > 0, 'the confirmation mail');
    // Past two more retry rounds: still one.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const mails = smtp.to(email);
    expect(mails).toHaveLength(1);
    expect(smtp.attempts).toBe(2);
    expect(mails[0]!.subject).toBe('Confirm your e-mail address for Linkboard');
    const { rows } = await stack.db.query<{ id: string; status: string; attempts: number }>(
      'select id, status, attempts from public.outgoing_mail where to_address = $1',
      [email],
    );
    expect(rows).toEqual([{ id: expect.any(String), status: 'sent', attempts: 2 }]);
    expect(mails[0]!.messageId).toBe(`<${rows[0]!.id}@linkboard>`);

    const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mails[0]!.text)?.[0];
    expect(link?.startsWith(`${stack.url}/auth/v1/verify?`)).toBe(true);
    const landed = await openVerifyLink(fetch, stack.url, link!);
    expect(landed.searchParams.get('confirmed')).toBe('signup');
  });

  it('has no mailbox, since the mail leaves the machine', async () => {
    expect((await fetch(`${stack.url}/_mailbox/messages.json`)).status).toBe(404);
  });

  it('stops delivering once closed', async () => {
    const other = await startStack({
      db: stack.db,
      port: 0,
      jwtSecret: TEST_JWT_SECRET,
      mail: { smtpUrl: `smtp://127.0.0.1:${smtp.port}` },
      drainerTiming: { firstMs: 10, busyMs: 50, idleMs: 50 },
    });
    await other.close();
    smtp.reset();
    await stack.close();
    await stack.db.query(
      `insert into public.outgoing_mail (to_address, subject, body) values ('late@example.com', 'Late', 'x')`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.attempts).toBe(0);
    const { rows } = await stack.db.query<{ status: string }>(
      `select status from public.outgoing_mail where to_address = 'late@example.com'`,
    );
    expect(rows).toEqual([{ status: 'queued' }]);
  });
});

describe('mail settings from the environment', () => {
  it('turns the mailbox off with an SMTP_URL, keeping what MAIL_PROVIDER and LINKBOARD_MAILBOX mean', () => {
    expect(mailboxModeFrom({})).toBe('loopback');
    expect(mailboxModeFrom({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toBe('off');
    expect(mailboxModeFrom({ SMTP_URL: 'smtp://127.0.0.1:2525', LINKBOARD_MAILBOX: 'public' })).toBe('off');
    expect(mailboxModeFrom({ MAIL_PROVIDER: 'postmark' })).toBe('off');
    expect(mailboxModeFrom({ MAIL_PROVIDER: 'local', LINKBOARD_MAILBOX: 'public' })).toBe('any');
  });

  it('reads SMTP_URL, MAIL_FROM, MAIL_CRON_SECRET and MAIL_RETRY_BASE_MS, and refuses bad values clearly', () => {
    expect(mailSettingsFrom({})).toEqual({
      smtpUrl: undefined,
      from: undefined,
      cronSecret: undefined,
      retryBaseMs: 30_000,
    });
    expect(
      mailSettingsFrom({
        SMTP_URL: 'smtps://user:pw@smtp.example:465',
        MAIL_FROM: 'Team <team@example.org>',
        MAIL_CRON_SECRET: 's'.repeat(32),
        MAIL_RETRY_BASE_MS: '500',
      }),
    ).toEqual({
      smtpUrl: 'smtps://user:pw@smtp.example:465',
      from: 'Team <team@example.org>',
      cronSecret: 's'.repeat(32),
      retryBaseMs: 500,
    });
    expect(() => mailSettingsFrom({ SMTP_URL: 'https://user:secret@mail.example' })).toThrow(
      'SMTP_URL must be smtp://[user:pass@]host:port or smtps://[user:pass@]host:port, not https://user:***@mail.example/',
    );
    for (const bad of ['fast', '1.5', '50', '-1', '999999999']) {
      expect(() => mailSettingsFrom({ MAIL_RETRY_BASE_MS: bad })).toThrow(
        `MAIL_RETRY_BASE_MS must be a whole number of milliseconds from 100 to 86400000, not "${bad}"`,
      );
    }
  });
});
