/**
 * The load run: many clients syncing at once against the local stack, as
 * the app syncs: each client is a busy user saving a change of 1 to 5 mutations about every
 * second (a pause of 0 to 2 s at random), pushing it and pulling until done, over the app's own
 * RPCs with the app's batch and page sizes. The clients run in a child
 * process (load-clients.ts), so the server's process does only the server's work. The bar is
 * the push p99 with 0 errors; it is meant for PostgreSQL (BENCH_DATABASE_URL): PGlite is one
 * embedded connection for a single user's machine, and its figures are reported, not judged.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RunningStack } from '../../supabase/local/server.ts';
import type { LoadClient, LoadConfig, LoadResult } from './load-clients.ts';
import { seedDirectory, signUp } from './setup.ts';
import { percentile, type Measure } from './stats.ts';

export interface LoadPlan {
  clients: number;
  seconds: number;
  log: (message: string) => void;
}

export async function accessToken(stack: RunningStack, email: string, password: string): Promise<string> {
  const response = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.keys.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

export function runClients(config: LoadConfig): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const script = fileURLToPath(new URL('./load-clients.ts', import.meta.url));
    // The configuration goes through stdin: 200 clients' tokens are more than one environment
    // variable may hold (E2BIG).
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify(config));
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load clients exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as LoadResult);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/** Links each load client's directory starts with. */
export const LOAD_SEEDED_LINKS = 50;

/** `count` Pro accounts, each with a directory of LOAD_SEEDED_LINKS links, signed in. */
export async function loadClients(stack: RunningStack, count: number, prefix: string): Promise<LoadClient[]> {
  const clients: LoadClient[] = [];
  for (let i = 0; i < count; i += 1) {
    const account = await signUp(stack, `${prefix}${i}`, 'pro');
    const directoryId = await seedDirectory(stack, account, 'Load', LOAD_SEEDED_LINKS);
    clients.push({ token: await accessToken(stack, account.email, account.password), directoryId });
  }
  return clients;
}

export async function load(stack: RunningStack, postgres: boolean, plan: LoadPlan): Promise<Measure[]> {
  plan.log(`load: signing up ${plan.clients} accounts`);
  const clients = await loadClients(stack, plan.clients, 'load');
  plan.log(`load: ${plan.clients} clients syncing for ${plan.seconds} s`);
  const result = await runClients({
    url: stack.url,
    anonKey: stack.keys.anonKey,
    seconds: plan.seconds,
    batch: 5,
    thinkMs: 1000,
    clients,
  });
  const label = `${plan.clients} clients × ${plan.seconds} s`;
  const errors = [...new Set(result.errors)].slice(0, 3).join(' | ');
  const perSecond = (result.mutations / plan.seconds).toFixed(0);
  const failed = result.errors.length > 0 ? `${result.errors.length} errors: ${errors}` : undefined;
  const where = postgres ? 'PostgreSQL' : 'PGlite: reported only, the bar is for PostgreSQL';
  return [
    {
      name: `push under load, ${label}`,
      unit: 'ms',
      samples: result.push,
      bar: postgres ? { p99: 500 } : undefined,
      note: `${where}; p99 ${percentile(result.push, 99).toFixed(0)} ms; ${result.push.length} pushes of 1–5, ${perSecond} mutations/s, ${result.errors.length} errors`,
      failed,
    },
    {
      name: `pull under load, ${label}`,
      unit: 'ms',
      samples: result.pull,
      note: `p99 ${percentile(result.pull, 99).toFixed(0)} ms; ${result.pull.length} pulls`,
    },
  ];
}
