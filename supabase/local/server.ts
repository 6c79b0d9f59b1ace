/**
 * `npm start` / `npm run serve`: the local stack on PORT (4173) and HOST (127.0.0.1), on the
 * Postgres at DATABASE_URL, else PGlite persisted under .data/pglite (in memory with
 * LINKBOARD_DB=memory). startStack() does the same for tests and e2e and returns {url, close}.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { openDb, type Db } from './db.ts';
import { migrate } from './migrate.ts';
import { createStack, projectRoot } from './app.ts';
import { DEV_JWT_SECRET, keysFor, type StackKeys } from './keys.ts';

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
  jwtSecret?: string;
  supportEmail?: string;
}

export interface RunningStack {
  url: string;
  mailboxUrl: string;
  keys: StackKeys;
  app: Hono;
  db: Db;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export async function startStack(options: StartOptions = {}): Promise<RunningStack> {
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
  const app = createStack({
    db,
    staticDir: options.staticDir,
    jwtSecret: options.jwtSecret,
    supportEmail: options.supportEmail,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolvePromise, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 4173, hostname: host }, () => resolvePromise(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    mailboxUrl: `${url}/_mailbox`,
    keys: await keysFor(options.jwtSecret ?? DEV_JWT_SECRET),
    app,
    db,
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((done) => {
          server.close(() => done());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        if (ownsDb) await db.close();
      })()),
  };
}

async function main(): Promise<void> {
  const env = process.env;
  const host = env.HOST || '127.0.0.1';
  const stack = await startStack({
    port: env.PORT ? Number(env.PORT) : 4173,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    memory: env.LINKBOARD_DB === 'memory',
    staticDir: env.STATIC_DIR ? resolve(env.STATIC_DIR) : undefined,
    supportEmail: env.SUPPORT_EMAIL || undefined,
  });
  const where = env.DATABASE_URL
    ? 'PostgreSQL (DATABASE_URL)'
    : env.LINKBOARD_DB === 'memory'
      ? 'PGlite in memory'
      : 'PGlite in .data/pglite';
  console.log(`Linkboard local stack on ${stack.url} (${where})`);
  console.log(`  mailbox:  ${stack.mailboxUrl}`);
  console.log(`  anon key: ${stack.keys.anonKey}`);
  if (!LOOPBACK.has(host)) {
    console.warn(
      `WARNING: listening on ${host}, beyond loopback, with the public DEVELOPMENT keys and JWT secret.\n` +
        '  Anyone who can reach this port can mint tokens, including service_role. Never use this for production.',
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
