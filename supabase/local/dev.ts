/**
 * `npm run dev`: the local stack's API on 127.0.0.1:54321 (STACK_PORT) and the Vite dev server,
 * which proxies the API paths to it (vite.config.ts reads LINKBOARD_STACK_URL).
 */
import { createServer } from 'vite';
import { startStack } from './server.ts';
import { projectRoot } from './app.ts';

async function main(): Promise<void> {
  const env = process.env;
  const stack = await startStack({
    port: env.STACK_PORT ? Number(env.STACK_PORT) : 54321,
    host: '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    memory: env.LINKBOARD_DB === 'memory',
  });
  process.env.LINKBOARD_STACK_URL = stack.url;
  const vite = await createServer({ root: projectRoot });
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
