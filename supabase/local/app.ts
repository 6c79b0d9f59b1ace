/**
 * The local stack as one Hono app: Supabase's HTTP API (auth, RPC, functions), the mailbox,
 * and the built app with SPA fallback. `app.fetch` serves it in-process (tests, functions).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { PASSWORD_COST } from './auth-users.ts';
import type { Db } from './db.ts';
import type { BillingSettings, StackContext } from './context.ts';
import { checkoutApp, testBillingKeys } from './checkout.ts';
import { keysFor } from './keys.ts';
import { DEFAULT_AUTH_LIMITS, type AuthLimits } from './auth-limits.ts';
import type { MailSettings } from './mail-settings.ts';
import { newVapidKeys, type PushSettings } from './push-settings.ts';
import { authApp } from './auth.ts';
import { restApp } from './rest.ts';
import { functionsApp } from './functions.ts';
import { mailboxApp, type MailboxMode } from './mailbox.ts';
import { staticApp } from './static.ts';
import { API_CSP, appCsp, securityHeaders } from './http-headers.ts';
import {
  authTooLarge,
  bodyLimits,
  functionTooLarge,
  plainTooLarge,
  providerTooLarge,
  restTooLarge,
  type BodyLimitRule,
} from './body-limit.ts';

export const DEFAULT_SUPPORT_EMAIL = 'support@linkboard.local';
/** The site of an in-process stack (tests); startStack passes the address it listens on. */
export const DEFAULT_SITE_URL = 'http://127.0.0.1:54321';

/** Request body limits: auth bodies are small; a push of 500 mutations fits well within 1 MB. */
export const AUTH_BODY_LIMIT = 64 * 1024;
export const API_BODY_LIMIT = 1024 * 1024;

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface StackOptions {
  db: Db;
  /** HS256 secret for access tokens and API keys (at least 32 characters; no default). */
  jwtSecret: string;
  /** The built app; default dist/ at the project root. */
  staticDir?: string;
  /** The address anonymous visitors may mail; default support@linkboard.local. */
  supportEmail?: string;
  /** The app's public origin (mailed links, CORS); default DEFAULT_SITE_URL. */
  siteUrl?: string;
  /** More origins whose pages may call the API (the Vite dev server). */
  allowedOrigins?: string[];
  /** Reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies?: string[];
  /**
   * Who may read /_mailbox: loopback peers, anyone (a development flag), or nobody (a real mail
   * provider). Default: nobody with mail.smtpUrl, else loopback peers.
   */
  mailbox?: MailboxMode;
  authLimits?: AuthLimits;
  /** The card provider; default the test-mode provider at /_checkout with keys made for this stack. */
  billing?: BillingSettings;
  /** Delivery of the mail queue through deliver-mail (SMTP_URL and the rest); default none. */
  mail?: MailSettings;
  /** Reminder pushes: the VAPID keys (and subject, scheduler secret); default a pair made for this stack. */
  push?: PushSettings;
  /**
   * The bcrypt cost of stored passwords; default PASSWORD_COST (hosted GoTrue's). Only the tests'
   * in-process stacks ask for less: a sign-up's hash is most of its time there.
   */
  passwordCost?: number;
}

/** Each route family's body limit and 413 shape (body-limit.ts); any other path gets the API's. */
const BODY_LIMITS: BodyLimitRule[] = [
  { prefix: '/auth/v1', maxSize: AUTH_BODY_LIMIT, answer: authTooLarge },
  { prefix: '/_checkout', maxSize: AUTH_BODY_LIMIT, answer: providerTooLarge },
  { prefix: '/rest/v1', maxSize: API_BODY_LIMIT, answer: restTooLarge },
  { prefix: '/functions/v1', maxSize: API_BODY_LIMIT, answer: functionTooLarge },
  { prefix: '/api', maxSize: API_BODY_LIMIT, answer: functionTooLarge },
];

export function createStack(options: StackOptions): Hono {
  const app = new Hono();
  const siteUrl = new URL(options.siteUrl ?? DEFAULT_SITE_URL).origin;
  const allowedOrigins = [siteUrl, ...(options.allowedOrigins ?? []).map((origin) => new URL(origin).origin)];
  const ctx: StackContext = {
    db: options.db,
    jwtSecret: options.jwtSecret,
    keys: keysFor(options.jwtSecret),
    supportEmail: options.supportEmail ?? DEFAULT_SUPPORT_EMAIL,
    siteUrl,
    allowedOrigins,
    trustedProxies: options.trustedProxies ?? [],
    limits: options.authLimits ?? DEFAULT_AUTH_LIMITS,
    billing: options.billing ?? { mode: 'test', ...testBillingKeys() },
    mail: options.mail ?? {},
    push: options.push ?? newVapidKeys(),
    passwordCost: options.passwordCost ?? PASSWORD_COST,
    root: () => app,
  };

  const apiPrefixes = ['/auth/v1', '/rest/v1', '/functions/v1', '/realtime/v1', '/api'];
  const isApi = (path: string) => apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  app.use(
    '*',
    securityHeaders((path) => (isApi(path) ? API_CSP : appCsp())),
  );

  // Browsers may call the API only from the app's own origin (and the dev server's).
  const api = cors({
    origin: (origin) => (allowedOrigins.includes(origin) ? origin : null),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposeHeaders: ['Content-Range', 'X-Supabase-Api-Version', 'Proxy-Status', 'Retry-After'],
    maxAge: 600,
  });
  for (const prefix of apiPrefixes) app.use(`${prefix}/*`, api);
  // Every body is read through before its route runs; one over the limit is answered 413 once sent.
  app.use('*', bodyLimits(BODY_LIMITS, { maxSize: API_BODY_LIMIT, answer: plainTooLarge }));

  app.route('/auth/v1', authApp(ctx));
  app.route('/rest/v1', restApp(ctx));
  app.route('/functions/v1', functionsApp(ctx, { verifyJwt: true }));
  app.route('/api', functionsApp(ctx, { verifyJwt: false }));
  // Realtime is a WebSocket on the stack's server (realtime-socket.ts); a plain request is not one.
  app.all('/realtime/v1/*', (c) => c.json({ message: 'Realtime speaks WebSocket: upgrade the request.' }, 426));
  app.route('/_mailbox', mailboxApp(ctx, options.mailbox ?? (ctx.mail.smtpUrl ? 'off' : 'loopback')));
  if (ctx.billing.mode === 'test') app.route('/_checkout', checkoutApp(ctx));
  app.get('/_health', (c) => c.json({ ok: true, db: ctx.db.kind }));
  app.route(
    '/',
    staticApp(options.staticDir ?? join(projectRoot, 'dist'), {
      anonKey: ctx.keys.anonKey,
      vapidPublicKey: ctx.push.publicKey,
    }),
  );

  app.onError((error, c) => {
    console.error('[stack]', error);
    return c.json({ message: 'Unexpected failure in the local stack' }, 500);
  });
  return app;
}
