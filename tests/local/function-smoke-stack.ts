/**
 * The stack both runtimes of the smoke suite call: the local stack listening on a free loopback
 * port (so Deno reaches it as a hosted function reaches its project), with the test-mode card
 * provider, a real SMTP server and a fake push service, and the environment hosted Supabase gives
 * a function (SUPABASE_URL and the keys, plus the functions' own secrets), the same for both.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { createStack } from '../../supabase/local/app.ts';
import type { Db } from '../../supabase/local/db.ts';
import { newVapidKeys } from '../../supabase/local/push-settings.ts';
import { startSmtpTestServer, type SmtpTestServer } from '../../e2e/support/smtp.ts';
import { freshDb, insertRow, type DbKind } from '../support/db.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET, TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { startFakePushService, type FakePushService } from './fake-push-service.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';

export const SUPPORT_EMAIL = 'support@linkboard.local';

export interface SmokeStack {
  url: string;
  db: Db;
  smtp: SmtpTestServer;
  push: FakePushService;
  billing: { secretKey: string; webhookSecret: string };
  /** The functions' environment, as `supabase secrets` and the hosted runtime set it. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startSmokeStack(kind?: DbKind): Promise<SmokeStack> {
  const db = await freshDb(kind);
  const [smtp, push] = await Promise.all([startSmtpTestServer(), startFakePushService()]);
  const billing = { secretKey: `sk_test_local_${randomUUID()}`, webhookSecret: `whsec_${randomUUID()}` };
  const mail = { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, cronSecret: `mail-cron-${randomUUID()}` };
  const vapid = { ...newVapidKeys(), subject: 'mailto:reminders@example.com', cronSecret: `push-${randomUUID()}` };
  const ready: { app?: Hono } = {};
  const server = serve({
    fetch: (req: Request, env: unknown) => ready.app?.fetch(req, env) ?? new Response('Starting', { status: 503 }),
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ready.app = createStack({
    db,
    jwtSecret: TEST_JWT_SECRET,
    siteUrl: url,
    supportEmail: SUPPORT_EMAIL,
    billing: { mode: 'test', ...billing },
    mail,
    // The mailbox still shows the queue (sign-ups confirm through it) while deliver-mail sends it on.
    mailbox: 'loopback',
    push: vapid,
  });
  const env = {
    SUPABASE_URL: url,
    SUPABASE_ANON_KEY: TEST_ANON_KEY,
    SUPABASE_SERVICE_ROLE_KEY: TEST_SERVICE_ROLE_KEY,
    SUPPORT_EMAIL,
    SITE_URL: url,
    STRIPE_SECRET_KEY: billing.secretKey,
    STRIPE_WEBHOOK_SECRET: billing.webhookSecret,
    STRIPE_API_BASE: `${url}/_checkout`,
    SMTP_URL: mail.smtpUrl,
    MAIL_CRON_SECRET: mail.cronSecret,
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: vapid.subject,
    REMINDERS_CRON_SECRET: vapid.cronSecret,
  };
  const close = async () => {
    await new Promise<void>((done) => {
      server.close(() => done());
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    await Promise.all([smtp.close(), push.close()]);
    await db.close();
  };
  return { url, db, smtp, push, billing, env, close };
}

/** What one runtime's cases act on: its own users and rows, so neither runtime's calls change the other's. */
export interface SmokeFixture {
  user: StackUser;
  /** A user on Pro (monthly) through the test-mode provider: checkout paid, subscription live. */
  payer: StackUser;
  /** The payer's paid checkout session (cs_...). */
  sessionId: string;
  /** A public directory of `user`'s with a link and a live poll. */
  directoryId: string;
  /** `user`'s calendar feed token. */
  feedToken: string;
  /** A link of `payer`'s whose preview was read already (no icon or image): asking again fetches nothing. */
  previewedLinkId: string;
}

const post = (url: string, body: unknown, token?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

export async function smokeFixture(stack: SmokeStack, prefix: string): Promise<SmokeFixture> {
  const { db, url } = stack;
  const user = await signUpConfirmed(fetch, db, { base: url, prefix, tier: 'team' });
  const payer = await signUpConfirmed(fetch, db, { base: url, prefix: `${prefix}-payer` });
  await db.query('update public.user_profiles set username = $2 where id = $1', [payer.id, `${prefix}_payer`]);
  const checkout = await post(`${url}/api/create-checkout`, { plan: 'pro', billingCycle: 'monthly' }, payer.token);
  const pay = (await checkout.json()) as { url: string };
  const paid = await fetch(pay.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'pay' }).toString(),
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`the test-mode checkout answered ${paid.status}`);
  const sessionId = new URL(pay.url).pathname.split('/').pop() ?? '';

  const directory = await insertRow<{ id: string }>(db, 'link_directories', {
    name: 'Reading list',
    owner_id: user.id,
    is_public: true,
  });
  await insertRow(db, 'saved_links', {
    directory_id: directory.id,
    owner_id: user.id,
    created_by: user.id,
    url: 'https://example.com/a',
    title: 'Example',
  });
  // The payer's, so the directory functions' answers for `user` do not list it.
  const drafts = await insertRow<{ id: string }>(db, 'link_directories', { name: 'Drafts', owner_id: payer.id });
  const previewed = await insertRow<{ id: string }>(db, 'saved_links', {
    directory_id: drafts.id,
    owner_id: payer.id,
    created_by: payer.id,
    url: 'https://example.com/read',
    title: 'Read already',
    preview_state: 'done',
    previewed_at: new Date().toISOString(),
  });
  await insertRow(db, 'voting_posts', {
    directory_id: directory.id,
    created_by_id: user.id,
    title: 'Lunch?',
    options: JSON.stringify([
      { id: 'a', text: 'Yes', votes: 0 },
      { id: 'b', text: 'No', votes: 0 },
    ]),
  });
  const { data: feedToken, error } = await user.client.rpc('create_calendar_feed');
  if (error) throw new Error(`create_calendar_feed: ${error.message}`);
  return {
    user,
    payer,
    sessionId,
    directoryId: directory.id,
    feedToken: feedToken as string,
    previewedLinkId: previewed.id,
  };
}
