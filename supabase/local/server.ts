/**
 * `npm start` / `npm run serve`: the local stack on PORT (4173) and HOST (127.0.0.1), on the
 * Postgres at DATABASE_URL, else PGlite persisted under .data/pglite (in memory with
 * LINKBOARD_DB=memory). The JWT secret is JWT_SECRET, else the install's own in .data/jwt-secret
 * (made at random on the first start; a random one per run with an in-memory database); the VAPID
 * keys of reminder pushes likewise (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, else .data/vapid-keys.json).
 * The stack runs the reminder scheduler (reminder-scheduler.ts), on PGlite autovacuum's ANALYZE
 * (auto-analyze.ts) and, with SMTP_URL, the mail drainer.
 * startStack() does the same for tests and e2e and returns {url, close}. docs/deploy.md lists
 * every variable.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { openDb, type Db } from './db.ts';
import { migrate, setSiteUrl } from './migrate.ts';
import { randomBytes } from 'node:crypto';
import { createStack, projectRoot } from './app.ts';
import { installSecret, keysFor, type StackKeys } from './keys.ts';
import { authLimitsFrom, DEFAULT_AUTH_LIMITS, type AuthLimits } from './auth-limits.ts';
import type { BillingSettings } from './context.ts';
import { isLoopback } from './client-address.ts';
import type { MailboxMode } from './mailbox.ts';
import { mailSettingsFrom, type MailSettings } from './mail-settings.ts';
import { deliverMailInProcess, startMailDrainer, type DrainerTiming, type MailDrainer } from './mail-drainer.ts';
import { redactSmtpUrl } from '../functions/_shared/smtp-sender.ts';
import { pushSettingsFrom, type PushSettings } from './push-settings.ts';
import {
  sendRemindersInProcess,
  startReminderScheduler,
  type ReminderScheduler,
  type ReminderSchedulerTiming,
} from './reminder-scheduler.ts';
import { startLinkCheckScheduler, type LinkCheckTiming } from './link-check-scheduler.ts';
import { startAutoAnalyze, type AutoAnalyzeTiming, type AutoAnalyzer } from './auto-analyze.ts';
import { startRealtime, type RealtimeOptions, type RealtimeServer } from './realtime-socket.ts';
import { pushHoldFile } from './fault-hold.ts';

export interface StartOptions {
  port?: number;
  host?: string;
  /** An open database to serve (not closed by close()); otherwise one is opened and migrated. */
  db?: Db;
  databaseUrl?: string;
  /** PGlite data directory; ignored with databaseUrl or memory. */
  dataDir?: string;
  memory?: boolean;
  staticDir?: string;
  jwtSecret: string;
  supportEmail?: string;
  /** The app's public origin; default the address the stack listens on. */
  siteUrl?: string;
  allowedOrigins?: string[];
  trustedProxies?: string[];
  mailbox?: MailboxMode;
  authLimits?: AuthLimits;
  /** The card provider; default the test-mode provider (see app.ts). */
  billing?: BillingSettings;
  /**
   * Delivery of the mail queue: with mail.smtpUrl a drainer delivers it in the background (and
   * the mailbox is off unless `mailbox` says otherwise).
   */
  mail?: MailSettings;
  /** The drainer's rounds (tests); default DRAINER_TIMING. */
  drainerTiming?: DrainerTiming;
  /** Reminder pushes' VAPID keys; default a pair made for this stack. */
  push?: PushSettings;
  /** The reminder scheduler's rounds (tests), or false for none; default REMINDER_SCHEDULER_TIMING. */
  reminderTiming?: ReminderSchedulerTiming | false;
  /** The broken-link check's rounds (link-check-scheduler.ts), or false for none; default LINK_CHECK_TIMING. */
  linkCheckTiming?: LinkCheckTiming | false;
  /** On PGlite, autovacuum's ANALYZE (auto-analyze.ts): its rounds, or false for none; default AUTO_ANALYZE_TIMING. */
  autoAnalyze?: AutoAnalyzeTiming | false;
  /** Realtime's caps (sockets per user and in all, channels, frame size) and the poke's throttle. */
  realtime?: RealtimeOptions;
}

export interface RunningStack {
  url: string;
  mailboxUrl: string;
  keys: StackKeys;
  app: Hono;
  db: Db;
  /** The Realtime socket server at /realtime/v1/websocket (realtime-socket.ts). */
  realtime: RealtimeServer;
  close(): Promise<void>;
}

export async function startStack(options: StartOptions): Promise<RunningStack> {
  const host = options.host ?? '127.0.0.1';
  let db = options.db;
  const ownsDb = !db;
  if (!db) {
    const dataDir =
      options.databaseUrl || options.memory ? undefined : (options.dataDir ?? join(projectRoot, '.data', 'pglite'));
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    db = await openDb({ databaseUrl: options.databaseUrl, dataDir });
    try {
      await migrate(db);
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
  }
  // The app is created once the port is known, so its site URL can default to it.
  const ready: { app?: Hono } = {};
  const server = await new Promise<ReturnType<typeof serve>>((resolvePromise, reject) => {
    const s = serve(
      {
        fetch: (req: Request, env: unknown) =>
          ready.app
            ? ready.app.fetch(req, env)
            : new Response('Starting', { status: 503, headers: { 'Retry-After': '1' } }),
        port: options.port ?? 4173,
        hostname: host,
      },
      () => resolvePromise(s),
    );
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const siteUrl = options.siteUrl ?? url.replace('://0.0.0.0:', '://localhost:').replace('://[::]:', '://localhost:');
  await setSiteUrl(db, siteUrl);
  const app = createStack({
    db,
    staticDir: options.staticDir,
    jwtSecret: options.jwtSecret,
    supportEmail: options.supportEmail,
    siteUrl,
    allowedOrigins: options.allowedOrigins,
    trustedProxies: options.trustedProxies,
    mailbox: options.mailbox,
    authLimits: options.authLimits,
    billing: options.billing,
    mail: options.mail,
    push: options.push,
  });
  ready.app = app;
  const realtime = await startRealtime(server as Server, { db, jwtSecret: options.jwtSecret }, options.realtime);
  const keys = keysFor(options.jwtSecret);
  const drainer: MailDrainer | undefined = options.mail?.smtpUrl
    ? startMailDrainer(deliverMailInProcess(app, url, keys.serviceRoleKey), options.drainerTiming)
    : undefined;
  const reminders: ReminderScheduler | undefined =
    options.reminderTiming === false
      ? undefined
      : startReminderScheduler(sendRemindersInProcess(app, url, keys.serviceRoleKey), options.reminderTiming);
  const linkChecks =
    options.linkCheckTiming === false
      ? undefined
      : startLinkCheckScheduler(app, url, keys.serviceRoleKey, options.linkCheckTiming);
  const analyzer: AutoAnalyzer | undefined =
    db.kind === 'pglite' && options.autoAnalyze !== false ? startAutoAnalyze(db, options.autoAnalyze) : undefined;
  let closing: Promise<void> | undefined;
  return {
    url,
    mailboxUrl: `${url}/_mailbox`,
    keys,
    app,
    db,
    realtime,
    close: () =>
      (closing ??= (async () => {
        await Promise.all([drainer?.stop(), reminders?.stop(), linkChecks?.stop(), analyzer?.stop(), realtime.close()]);
        await new Promise<void>((done) => {
          server.close(() => done());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        if (ownsDb) await db.close();
      })()),
  };
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * The card provider from the environment: Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET
 * are set (with STRIPE_PRICE_PRO_MONTHLY and the three other price ids), else undefined, which
 * starts the test-mode provider at /_checkout. One key without the other is a mistake, said at start.
 */
export function billingFrom(env: NodeJS.ProcessEnv): BillingSettings | undefined {
  const secretKey = env.STRIPE_SECRET_KEY;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET;
  if (!secretKey && !webhookSecret) return undefined;
  if (!secretKey || !webhookSecret) {
    throw new Error('Set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or neither (test-mode payments).');
  }
  return {
    mode: 'provider',
    secretKey,
    webhookSecret,
    prices: {
      pro_monthly: env.STRIPE_PRICE_PRO_MONTHLY,
      pro_yearly: env.STRIPE_PRICE_PRO_YEARLY,
      team_monthly: env.STRIPE_PRICE_TEAM_MONTHLY,
      team_yearly: env.STRIPE_PRICE_TEAM_YEARLY,
    },
  };
}

/**
 * The mailbox is off once mail really leaves the machine (SMTP_URL, which the stack delivers
 * itself, or MAIL_PROVIDER, another sender), public only on request.
 */
export function mailboxModeFrom(env: NodeJS.ProcessEnv): MailboxMode {
  if (env.SMTP_URL?.trim() || (env.MAIL_PROVIDER && env.MAIL_PROVIDER !== 'local')) return 'off';
  return env.LINKBOARD_MAILBOX === 'public' ? 'any' : 'loopback';
}

async function main(): Promise<void> {
  const env = process.env;
  const host = env.HOST || '127.0.0.1';
  const memory = env.LINKBOARD_DB === 'memory';
  const secret =
    memory && !env.JWT_SECRET
      ? { secret: randomBytes(48).toString('base64url'), source: 'random for this in-memory run' }
      : installSecret(env, join(projectRoot, '.data', 'jwt-secret'));
  const mailbox = mailboxModeFrom(env);
  const mail = mailSettingsFrom(env);
  const push = pushSettingsFrom(env, memory ? undefined : join(projectRoot, '.data', 'vapid-keys.json'));
  const stack = await startStack({
    port: env.PORT ? Number(env.PORT) : 4173,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    memory,
    staticDir: env.STATIC_DIR ? resolve(env.STATIC_DIR) : undefined,
    supportEmail: env.SUPPORT_EMAIL || undefined,
    jwtSecret: secret.secret,
    siteUrl: env.SITE_URL || undefined,
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    trustedProxies: list(env.TRUSTED_PROXIES),
    mailbox,
    authLimits: authLimitsFrom(env.LINKBOARD_AUTH_LIMITS, DEFAULT_AUTH_LIMITS),
    billing: billingFrom(env),
    mail,
    push,
  });
  const where = env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : memory ? 'PGlite in memory' : 'PGlite in .data/pglite';
  console.log(`Linkboard local stack on ${stack.url} (${where})`);
  console.log(`  JWT secret: ${secret.source}`);
  if (mailbox !== 'off') console.log(`  mailbox:    ${stack.mailboxUrl}`);
  console.log(
    `  payments:   ${env.STRIPE_SECRET_KEY ? 'Stripe (STRIPE_SECRET_KEY)' : `test mode at ${stack.url}/_checkout`}`,
  );
  console.log(`  reminders:  pushed every 30 s, VAPID keys ${push.source}`);
  if (mail.smtpUrl) console.log(`  mail:       delivered through ${redactSmtpUrl(mail.smtpUrl)}`);
  const holdFile = pushHoldFile();
  if (holdFile) {
    console.warn(
      `FAULT HOOK ON: sync_push is held while ${holdFile} names a point (LINKBOARD_FAULT_PUSH_HOLD_FILE, the fault suite only; docs/faults.md)`,
    );
  }
  if (!isLoopback(host)) {
    console.warn(
      `NOTE: listening on ${host}, beyond loopback.` +
        (mailbox === 'loopback'
          ? ' The mailbox (which holds confirmation links) is served only to this machine; LINKBOARD_MAILBOX=public shares it (development only).'
          : mailbox === 'any'
            ? ' WARNING: LINKBOARD_MAILBOX=public serves every mailed confirmation link to anyone who can reach this port.'
            : ''),
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the local stack`);
    stack.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
