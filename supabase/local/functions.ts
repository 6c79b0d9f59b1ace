/**
 * /functions/v1/<name> and /api/<name>: Edge Functions from supabase/functions/<name>/index.ts,
 * each a web-standard `(req, env) => Response` default export, loaded on first call.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Hono, type Context } from 'hono';
import type { FunctionEnv, FunctionHandler } from '../functions/_shared/types.ts';
import type { StackContext } from './context.ts';
import { clientOf } from './context.ts';
import { bearerToken, verifyJwt } from './jwt.ts';

export const functionsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'functions');
const NAME = /^[a-z0-9][a-z0-9_-]*$/; // `_shared` and the like are not functions

/**
 * Functions deployed with verify_jwt = false in supabase/config.toml (the CLI's setting): the
 * gateway lets their calls through without a user's token, and the function authenticates them.
 */
export function functionsWithoutJwt(toml: string): Set<string> {
  const names = new Set<string>();
  let section: string | null = null;
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[functions\.([a-z0-9_-]+)\]$/.exec(line);
    if (header) section = header[1] ?? null;
    else if (line.startsWith('[')) section = null;
    else if (section && /^verify_jwt\s*=\s*false$/.test(line)) names.add(section);
  }
  return names;
}

const configToml = join(functionsDir, '..', 'config.toml');
const withoutJwt = functionsWithoutJwt(existsSync(configToml) ? readFileSync(configToml, 'utf8') : '');

export function functionsApp(ctx: StackContext, options: { verifyJwt: boolean }): Hono {
  const app = new Hono();
  const cache = new Map<string, Promise<FunctionHandler>>();

  const load = (name: string): Promise<FunctionHandler> | undefined => {
    const file = join(functionsDir, name, 'index.ts');
    if (!NAME.test(name) || !existsSync(file)) return undefined;
    let handler = cache.get(name);
    if (!handler) {
      handler = import(pathToFileURL(file).href).then((module: { default?: unknown }) => {
        if (typeof module.default !== 'function') throw new Error(`${file} has no default export handler`);
        return module.default as FunctionHandler;
      });
      cache.set(name, handler);
    }
    return handler;
  };

  const dispatch = async (c: Context) => {
    const name = c.req.param('name') ?? '';
    const handler = load(name);
    if (!handler) return c.json({ code: 'NOT_FOUND', message: 'Requested function was not found' }, 404);
    // Hosted Supabase checks the JWT before the function runs (verify_jwt); preflights pass.
    if (options.verifyJwt && c.req.method !== 'OPTIONS' && !withoutJwt.has(name)) {
      const token = bearerToken(c.req.header('Authorization'));
      if (!token) return c.json({ code: 401, message: 'Missing authorization header' }, 401);
      if (!(await verifyJwt(token, ctx.jwtSecret)).ok) return c.json({ code: 401, message: 'Invalid JWT' }, 401);
    }
    const keys = ctx.keys;
    const root = ctx.root();
    const origin = new URL(c.req.url).origin;
    const billing = ctx.billing;
    const env: FunctionEnv = {
      SUPABASE_URL: origin,
      SUPABASE_ANON_KEY: keys.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: keys.serviceRoleKey,
      SUPPORT_EMAIL: ctx.supportEmail,
      SITE_URL: ctx.siteUrl,
      STRIPE_SECRET_KEY: billing.secretKey,
      STRIPE_WEBHOOK_SECRET: billing.webhookSecret,
      STRIPE_API_BASE: billing.mode === 'test' ? `${origin}/_checkout` : undefined,
      STRIPE_PRICE_PRO_MONTHLY: billing.prices?.pro_monthly,
      STRIPE_PRICE_PRO_YEARLY: billing.prices?.pro_yearly,
      STRIPE_PRICE_TEAM_MONTHLY: billing.prices?.team_monthly,
      STRIPE_PRICE_TEAM_YEARLY: billing.prices?.team_yearly,
      SMTP_URL: ctx.mail.smtpUrl,
      MAIL_FROM: ctx.mail.from,
      MAIL_CRON_SECRET: ctx.mail.cronSecret,
      MAIL_RETRY_BASE_MS: ctx.mail.retryBaseMs?.toString(),
      VAPID_PUBLIC_KEY: ctx.push.publicKey,
      VAPID_PRIVATE_KEY: ctx.push.privateKey,
      VAPID_SUBJECT: ctx.push.subject,
      REMINDERS_CRON_SECRET: ctx.push.cronSecret,
      PREVIEW_FETCH_ALLOW: process.env.PREVIEW_FETCH_ALLOW,
      fetch: async (input, init) => root.fetch(new Request(input, init)),
    };
    const req = new Request(c.req.raw);
    // The client address as the gateway sees it; a value the client sent is replaced.
    req.headers.set('x-forwarded-for', clientOf(ctx, c));
    try {
      return withAllowedOrigin(await (await handler)(req, env), c.req.header('Origin'), ctx.allowedOrigins);
    } catch (error) {
      console.error(`[functions] ${name}:`, error);
      return c.json({ code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' }, 500);
    }
  };

  app.all('/:name', dispatch);
  app.all('/:name/*', dispatch);
  return app;
}

/**
 * Functions set their own CORS headers (as Edge Functions must); the stack narrows a wildcard to
 * the app's origins, so browsers on other sites cannot read the answers.
 */
function withAllowedOrigin(response: Response, origin: string | undefined, allowed: readonly string[]): Response {
  if (!response.headers.has('Access-Control-Allow-Origin')) return response;
  const headers = new Headers(response.headers);
  if (origin && allowed.includes(origin)) headers.set('Access-Control-Allow-Origin', origin);
  else headers.delete('Access-Control-Allow-Origin');
  headers.append('Vary', 'Origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
