/**
 * The local stack as one Hono app: Supabase's HTTP API (auth, RPC, functions), the mailbox,
 * and the built app with SPA fallback. `app.fetch` serves it in-process (tests, functions).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Db } from './db.ts';
import { makeContext } from './context.ts';
import { DEV_JWT_SECRET } from './keys.ts';
import { authApp } from './auth.ts';
import { restApp } from './rest.ts';
import { functionsApp } from './functions.ts';
import { mailboxApp } from './mailbox.ts';
import { staticHandler } from './static.ts';

export const DEFAULT_SUPPORT_EMAIL = 'support@linkboard.local';

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface StackOptions {
  db: Db;
  /** The built app; default dist/ at the project root. */
  staticDir?: string;
  /** HS256 secret for access tokens and API keys; default the development secret. */
  jwtSecret?: string;
  /** The address anonymous visitors may mail; default support@linkboard.local. */
  supportEmail?: string;
}

export function createStack(options: StackOptions): Hono {
  const app = new Hono();
  const ctx = makeContext({
    db: options.db,
    jwtSecret: options.jwtSecret ?? DEV_JWT_SECRET,
    supportEmail: options.supportEmail ?? DEFAULT_SUPPORT_EMAIL,
    root: () => app,
  });

  // The app may run from another origin in development (vite dev server).
  const api = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposeHeaders: ['Content-Range', 'X-Supabase-Api-Version', 'Proxy-Status', 'Retry-After'],
    maxAge: 600,
  });
  for (const prefix of ['/auth/v1/*', '/rest/v1/*', '/functions/v1/*', '/api/*']) app.use(prefix, api);

  app.route('/auth/v1', authApp(ctx));
  app.route('/rest/v1', restApp(ctx));
  app.route('/functions/v1', functionsApp(ctx, { verifyJwt: true }));
  app.route('/api', functionsApp(ctx, { verifyJwt: false }));
  app.route('/_mailbox', mailboxApp(ctx));
  app.get('/_health', (c) => c.json({ ok: true, db: ctx.db.kind }));
  app.all('*', staticHandler(options.staticDir ?? join(projectRoot, 'dist')));

  app.onError((error, c) => {
    console.error('[stack]', error);
    return c.json({ message: 'Unexpected failure in the local stack' }, 500);
  });
  return app;
}
