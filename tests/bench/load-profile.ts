/**
 * `npx tsx tests/bench/load-profile.ts`: the load run (load.ts) against a stack in this process,
 * without the browser, with the stack's CPU profiled while the clients sync. LOAD_PROFILE_CLIENTS
 * accounts (default 200), made in SQL (as load-sql.ts makes them) with a session each from the
 * stack's own sign-in code, sync for LOAD_PROFILE_SECONDS (default 20) from load-clients.ts's child
 * process; then the push and pull percentiles, and the stack's CPU time by module and by function
 * (own time). On BENCH_DATABASE_URL (an empty database), else PGlite in memory.
 * LOAD_PROFILE_OUT=file.cpuprofile keeps the profile (Chromium's DevTools opens it).
 * LOAD_PROFILE_CPU=0 runs the clients without the profiler (its own cost is a few per cent).
 * Also printed: the CPU time (user and system) of the stack's process and, on PostgreSQL, of the
 * database's server processes, per request: unlike the profile's samples and the latencies, these
 * do not count the time a process waited for a core, which on a shared machine is most of it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startSession } from '../../supabase/local/auth-sessions.ts';
import { LOAD_SEEDED_LINKS, runClients } from './load.ts';
import type { LoadClient } from './load-clients.ts';
import { startBenchStack } from './setup.ts';
import { percentile } from './stats.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const clientCount = Number(process.env.LOAD_PROFILE_CLIENTS) || 200;
const seconds = Number(process.env.LOAD_PROFILE_SECONDS) || 20;
const profiled = process.env.LOAD_PROFILE_CPU !== '0';
process.env.JWT_SECRET ||= randomUUID() + randomUUID();

/** Where a function's code lives, as a short module name. */
function moduleOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return url;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const own = /\/((?:supabase|src|tests)\/.*)$/.exec(url);
  return own ? own[1]! : url;
}

function summarize(profile: Profile, requests: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = (profile.endTime - profile.startTime) / 1000;
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id)!;
    const module = moduleOf(callFrame.url, callFrame.functionName);
    modules.set(module, (modules.get(module) ?? 0) + micros / 1000);
    const fn = `${callFrame.functionName || '(anonymous)'} ${module}:${callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + micros / 1000);
  }
  const idle = modules.get('(idle)') ?? 0;
  const busy = total - idle;
  console.log(
    `stack CPU: ${busy.toFixed(0)} ms busy of ${total.toFixed(0)} ms profiled, ${(busy / requests).toFixed(2)} ms a request (${requests})`,
  );
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${k}`);
  console.log('by module (own time):');
  for (const line of top(modules, 25)) console.log(line);
  console.log('by function (own time):');
  for (const line of top(functions, 40)) console.log(line);
}

/** CPU ms (user + system) of this database's server processes so far, by pid (Linux /proc). */
async function serverCpu(stack: Awaited<ReturnType<typeof startBenchStack>>['stack']): Promise<Map<number, number>> {
  const cpu = new Map<number, number>();
  if (stack.db.kind !== 'postgres') return cpu;
  const { rows } = await stack.db.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  for (const { pid } of rows) {
    try {
      // utime and stime are the 14th and 15th fields, after the command's closing parenthesis.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      // Not on Linux, or the process has ended.
    }
  }
  return cpu;
}

async function seed(stack: Awaited<ReturnType<typeof startBenchStack>>['stack'], n: number): Promise<LoadClient> {
  const id = randomUUID();
  const email = `load-profile-${n}-${id.slice(0, 8)}@example.com`;
  await stack.db.query(
    `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data)
     values ($1, $2, 'x', now(), '{}'::jsonb)`,
    [id, email],
  );
  await stack.db.query(`update public.user_profiles set subscription_tier = 'pro' where id = $1`, [id]);
  const directoryId = randomUUID();
  await stack.db.query('insert into public.link_directories (id, name, owner_id) values ($1, $2, $3)', [
    directoryId,
    'Load',
    id,
  ]);
  await stack.db.query(
    `insert into public.saved_links (id, directory_id, url, title, owner_id, created_by)
     select gen_random_uuid(), $1, 'https://load.example/seed/' || $3::text || '/' || i, 'Seeded ' || i, $2, $2
     from generate_series(1, $4::int) i`,
    [directoryId, id, n, LOAD_SEEDED_LINKS],
  );
  const issuer = { iss: `${stack.url}/auth/v1`, secret: process.env.JWT_SECRET! };
  const session = await stack.db.transaction((tx) => startSession(tx, issuer, id));
  return { token: session.access_token, directoryId };
}

async function main(): Promise<void> {
  const { stack, database } = await startBenchStack();
  try {
    const clients: LoadClient[] = [];
    for (let n = 0; n < clientCount; n += 1) clients.push(await seed(stack, n));
    await stack.db.exec('analyze');
    const session = new Session();
    session.connect();
    if (profiled) {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
    }
    const cpuBefore = process.cpuUsage();
    const serverBefore = await serverCpu(stack);
    const result = await runClients({
      url: stack.url,
      anonKey: stack.keys.anonKey,
      seconds,
      batch: 5,
      thinkMs: 1000,
      clients,
    });
    const label = `${clientCount} clients × ${seconds} s on ${database}`;
    const p = (values: number[], q: number) => percentile(values, q).toFixed(0);
    console.log(`${label}: ${(result.mutations / seconds).toFixed(0)} mutations/s, ${result.errors.length} errors`);
    console.log(
      `push: median ${p(result.push, 50)} ms, p95 ${p(result.push, 95)}, p99 ${p(result.push, 99)} (${result.push.length})`,
    );
    console.log(
      `pull: median ${p(result.pull, 50)} ms, p95 ${p(result.pull, 95)}, p99 ${p(result.pull, 99)} (${result.pull.length})`,
    );
    const cpu = process.cpuUsage(cpuBefore);
    const serverAfter = await serverCpu(stack);
    const requests = result.push.length + result.pull.length;
    const stackMs = (cpu.user + cpu.system) / 1000;
    let serverMs = 0;
    for (const [pid, ms] of serverAfter) serverMs += ms - (serverBefore.get(pid) ?? 0);
    console.log(
      `CPU a request (push or pull): stack ${(stackMs / requests).toFixed(2)} ms (${stackMs.toFixed(0)} ms in all), ` +
        `database ${(serverMs / requests).toFixed(2)} ms (${serverMs.toFixed(0)} ms, ${serverAfter.size} processes)`,
    );
    if (result.errors.length > 0) console.log(`errors: ${[...new Set(result.errors)].slice(0, 3).join(' | ')}`);
    if (profiled) {
      const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
      if (process.env.LOAD_PROFILE_OUT) writeFileSync(process.env.LOAD_PROFILE_OUT, JSON.stringify(profile));
      summarize(profile, result.push.length + result.pull.length);
    }
    session.disconnect();
  } finally {
    await stack.close();
  }
}

await main();
