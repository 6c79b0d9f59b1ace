/**
 * The queue's mail delivered through a real SMTP server (smtp-server on a free
 * loopback port) by drainOutgoingMail with smtpSender, against the local stack in-process: once,
 * with the row's Message-ID; retried after a temporary refusal (451) or an unreachable server;
 * failed for good after a permanent one (550); once even with two senders racing or a sender that
 * died mid-delivery. And the deliver-mail function, which only the service role or the cron secret
 * may run.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { drainOutgoingMail, type DrainResult } from '../../supabase/functions/_shared/mail-delivery.ts';
import { smtpSender, isPermanentSmtpFailure } from '../../supabase/functions/_shared/smtp-sender.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../e2e/support/smtp.ts';
import { anonKey, serviceKey, startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';
import { dbKinds } from '../support/db.ts';

const CRON_SECRET = 'a-cron-secret-for-these-tests-only';
const RETRY_BASE_MS = 200;

let smtp: SmtpTestServer;
let stack: TestStack;
let service: SupabaseClient;
let smtpUrl: string;

interface Row {
  id: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent: boolean;
}

async function queue(
  to = uniqueEmail('to'),
  subject = 'Your receipt',
  body = 'Thank you.\n\nLinkboard',
): Promise<string> {
  const { data, error } = await service.rpc('enqueue_mail', {
    p_to: to,
    p_subject: subject,
    p_body: body,
    p_sender: null,
    p_client: null,
    p_support: false,
  });
  if (error) throw new Error(error.message);
  return data as string;
}

async function row(id: string): Promise<Row> {
  const { rows } = await stack.db.query<Row>(
    'select id, status, attempts, last_error, sent_at is not null as sent from public.outgoing_mail where id = $1',
    [id],
  );
  if (!rows[0]) throw new Error(`no row ${id}`);
  return rows[0];
}

const drain = (options: { url?: string; batchSize?: number; retryBaseMs?: number } = {}) =>
  drainOutgoingMail({
    client: service,
    send: smtpSender(options.url ?? smtpUrl),
    retryBaseMs: options.retryBaseMs ?? RETRY_BASE_MS,
    batchSize: options.batchSize,
  });

/** Drains until a round handles nothing for longer than the back-off; sums the rounds. */
async function drainUntilIdle(options: { batchSize?: number } = {}): Promise<DrainResult> {
  const total = { sent: 0, retried: 0, failed: 0 };
  for (let idle = 0; idle < 3;) {
    const result = await drain(options);
    total.sent += result.sent;
    total.retried += result.retried;
    total.failed += result.failed;
    if (result.sent + result.retried + result.failed === 0) {
      idle++;
      await new Promise((resolve) => setTimeout(resolve, RETRY_BASE_MS));
    } else idle = 0;
  }
  return total;
}

describe.each(dbKinds)('mail delivery over SMTP (%s)', (kind) => {
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
    stack = await startTestStack({ kind, mail: { smtpUrl, cronSecret: CRON_SECRET, retryBaseMs: RETRY_BASE_MS } });
    service = stack.client(serviceKey);
  });
  afterAll(async () => {
    await stack.close();
    await smtp.close();
  });
  beforeEach(async () => {
    await stack.db.exec('delete from public.outgoing_mail');
    smtp.reset();
  });

  describe('drainOutgoingMail with smtpSender', () => {
    it('delivers a queued mail once, with its text, the From and a Message-ID made from the row', async () => {
      const to = uniqueEmail('ann');
      const body = 'Thank you for your order.\n\nPlan: Pro — yearly\nSee https://app.example/Profile';
      const id = await queue(to, 'Your Linkboard receipt', body);
      expect(await drain()).toEqual({ sent: 1, retried: 0, failed: 0 });
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]).toMatchObject({
        to,
        from: 'Linkboard <no-reply@linkboard.local>',
        subject: 'Your Linkboard receipt',
        text: body,
        messageId: `<${id}@linkboard>`,
      });
      expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, sent: true, last_error: null });
      expect(await drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(smtp.messages).toHaveLength(1);
    });

    it('retries a mail the server put off (451) and delivers it exactly once', async () => {
      smtp.failNext(1, 451);
      const id = await queue();
      // A back-off of a minute, so the next drain runs well inside it however busy the machine is.
      expect(await drain({ retryBaseMs: 60_000 })).toEqual({ sent: 0, retried: 1, failed: 0 });
      expect(await row(id)).toMatchObject({ status: 'queued', attempts: 1, sent: false });
      expect((await row(id)).last_error).toMatch(/451/);
      // Not before its back-off.
      expect(await drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
      // The back-off over: the next drain sends it.
      await stack.db.query('update public.outgoing_mail set next_attempt_at = now() where id = $1', [id]);
      expect(await drainUntilIdle()).toEqual({ sent: 1, retried: 0, failed: 0 });
      expect(smtp.attempts).toBe(2);
      expect(smtp.messages.map((mail) => mail.messageId)).toEqual([`<${id}@linkboard>`]);
      expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, sent: true });
    });

    it('fails a mail the server refused for good (550) and does not try it again', async () => {
      smtp.failNext(1, 550);
      const id = await queue();
      expect(await drain()).toEqual({ sent: 0, retried: 0, failed: 1 });
      const failed = await row(id);
      expect(failed).toMatchObject({ status: 'failed', attempts: 1, sent: false });
      expect(failed.last_error).toMatch(/550/);
      expect(await drainUntilIdle()).toEqual({ sent: 0, retried: 0, failed: 0 });
      expect(smtp.attempts).toBe(1);
      expect(smtp.messages).toEqual([]);
    });

    it('keeps the mail queued while the server cannot be reached', async () => {
      const id = await queue();
      const closed = await startSmtpTestServer();
      const unreachable = `smtp://127.0.0.1:${closed.port}`;
      await closed.close();
      expect(await drain({ url: unreachable })).toEqual({ sent: 0, retried: 1, failed: 0 });
      expect(await row(id)).toMatchObject({ status: 'queued', attempts: 1 });
      expect((await row(id)).last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(await drainUntilIdle()).toEqual({ sent: 1, retried: 0, failed: 0 });
    });

    it('delivers each mail once when two senders drain at the same time', async () => {
      const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => queue(uniqueEmail(`race${i}`))));
      const [a, b] = await Promise.all([drainUntilIdle({ batchSize: 3 }), drainUntilIdle({ batchSize: 3 })]);
      expect(a!.sent + b!.sent).toBe(12);
      expect(smtp.messages.map((mail) => mail.messageId).sort()).toEqual(ids.map((id) => `<${id}@linkboard>`).sort());
      const { rows } = await stack.db.query<{ status: string; attempts: number }>(
        'select distinct status, attempts from public.outgoing_mail',
      );
      expect(rows).toEqual([{ status: 'sent', attempts: 1 }]);
    });

    it('delivers a mail whose sender died mid-delivery once its lease has passed', async () => {
      const id = await queue();
      // A sender claims it and dies: the row stays 'sending' under a lease nobody will finish.
      const claimed = await service.rpc('claim_outgoing_mail', { p_limit: 10, p_lease_seconds: 60 });
      expect(claimed.data).toHaveLength(1);
      expect(await drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
      await stack.db.query(`update public.outgoing_mail set locked_until = now() - interval '1 second' where id = $1`, [
        id,
      ]);
      expect(await drain()).toEqual({ sent: 1, retried: 0, failed: 0 });
      expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
      expect(smtp.messages).toHaveLength(1);
    });

    it('counts as permanent only a 5xx reply about the recipient or the message', () => {
      expect(isPermanentSmtpFailure({ responseCode: 550, permanent: true, command: 'RCPT TO' })).toBe(true);
      expect(isPermanentSmtpFailure({ responseCode: 552, permanent: true, command: 'DATA' })).toBe(true);
      expect(isPermanentSmtpFailure({ responseCode: 451, permanent: false, command: 'DATA' })).toBe(false);
      expect(isPermanentSmtpFailure({ responseCode: 535, permanent: true, command: 'AUTH PLAIN' })).toBe(false);
      expect(isPermanentSmtpFailure({ responseCode: 553, permanent: true, command: 'MAIL FROM' })).toBe(false);
      expect(isPermanentSmtpFailure({ code: 'ECONNREFUSED' })).toBe(false);
      expect(() => smtpSender('http://mail.example')).toThrow('SMTP_URL must be smtp://');
    });
  });

  describe('the deliver-mail function', () => {
    const call = (path: string, headers: Record<string, string>, method = 'POST') =>
      stack.fetch(`${URL_BASE}${path}`, { method, headers, body: method === 'POST' ? '{}' : undefined });

    it('refuses anyone without the service-role key or the cron secret, and delivers nothing for them', async () => {
      await queue();
      const user = stack.client();
      const { data } = await user.auth.signUp({ email: uniqueEmail('caller'), password: 'password1' });
      const userToken = data.session!.access_token;
      const refused = [
        await call('/api/deliver-mail', {}),
        await call('/api/deliver-mail', { Authorization: `Bearer ${anonKey}` }),
        await call('/functions/v1/deliver-mail', { Authorization: `Bearer ${anonKey}` }),
        await call('/functions/v1/deliver-mail', { Authorization: `Bearer ${userToken}` }),
        await call('/api/deliver-mail', { Authorization: 'Bearer not-the-secret' }),
        await call('/api/deliver-mail', { Authorization: `Bearer ${anonKey}`, 'X-Mail-Cron-Secret': 'wrong' }),
        await call('/api/deliver-mail', { Authorization: `Bearer ${CRON_SECRET.slice(0, -1)}` }),
      ];
      for (const response of refused) {
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({
          error: 'Unauthorized: send the service-role key or the MAIL_CRON_SECRET',
        });
      }
      expect((await call('/api/deliver-mail', { Authorization: `Bearer ${serviceKey}` }, 'GET')).status).toBe(405);
      expect(smtp.attempts).toBe(0);
    });

    it('delivers a batch for the service role or the cron secret and answers the counts', async () => {
      await queue();
      const asService = await call('/functions/v1/deliver-mail', { Authorization: `Bearer ${serviceKey}` });
      expect(asService.status).toBe(200);
      expect(await asService.json()).toEqual({ sent: 1, retried: 0, failed: 0 });

      await queue();
      const byHeader = await call('/functions/v1/deliver-mail', {
        Authorization: `Bearer ${anonKey}`,
        'X-Mail-Cron-Secret': CRON_SECRET,
      });
      expect(await byHeader.json()).toEqual({ sent: 1, retried: 0, failed: 0 });

      await queue();
      const byBearer = await call('/api/deliver-mail', { Authorization: `Bearer ${CRON_SECRET}` });
      expect(await byBearer.json()).toEqual({ sent: 1, retried: 0, failed: 0 });
      expect(smtp.messages).toHaveLength(3);
    });

    it('delivers nothing, and says so, without a provider', async () => {
      const bare = await startTestStack();
      try {
        const response = await bare.fetch(`${URL_BASE}/functions/v1/deliver-mail`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${serviceKey}` },
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ sent: 0, retried: 0, failed: 0, skipped: 'no provider' });
      } finally {
        await bare.close();
      }
    });
  });
});
