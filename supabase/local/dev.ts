/**
 * `npm run dev`: the local stack's API on 127.0.0.1:54321 (STACK_PORT) and the Vite dev server,
 * which proxies the API paths to it (vite.config.ts reads LINKBOARD_STACK_URL).
 */
import { join } from 'node:path';
import { createServer } from 'vite';
import { startStack } from './server.ts';
import { projectRoot } from './app.ts';
import { installSecret } from './keys.ts';
import { pushSettingsFrom } from './push-settings.ts';

async function main(): Promise<void> {
  const env = process.env;
  const devPort = env.DEV_PORT ? Number(env.DEV_PORT) : 5173;
  const memory = env.LINKBOARD_DB === 'memory';
  const push = pushSettingsFrom(env, memory ? undefined : join(projectRoot, '.data', 'vapid-keys.json'));
  const stack = await startStack({
    port: env.STACK_PORT ? Number(env.STACK_PORT) : 54321,
    host: '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    memory,
    jwtSecret: installSecret(env, join(projectRoot, '.data', 'jwt-secret')).secret,
    // Pages come from the Vite dev server, which proxies the API: links and CORS name it.
    siteUrl: `http://localhost:${devPort}`,
    allowedOrigins: [`http://127.0.0.1:${devPort}`],
    push,
  });
  process.env.LINKBOARD_STACK_URL = stack.url;
  // The dev server serves index.html itself: the app reads its key from the environment.
  process.env.VITE_SUPABASE_ANON_KEY = stack.keys.anonKey;
  process.env.VITE_VAPID_PUBLIC_KEY ||= push.publicKey;
  const vite = await createServer({ root: projectRoot, server: { port: devPort, strictPort: true } });
  await vite.listen();
  console.log(`Local stack API on ${stack.url}; mailbox on ${stack.mailboxUrl}`);
  vite.printUrls();
  const stop = async () => {
    await Promise.allSettled([vite.close(), stack.close()]);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
