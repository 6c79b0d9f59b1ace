/**
 * The soak run (`BENCH_ONLY=soak`, never in the default pass; docs/bench.md, docs/faults.md): the load
 * run's clients (load-clients.ts, 50 by default) syncing for 15 minutes against the stack on
 * PostgreSQL, the stack's memory sampled every 10 s in its own process (the clients run in a child
 * process). Bars: memory flat (the median of the last third within 10 % of the median of the first
 * third after a two-minute warm-up), push p99 < 500 ms, 0 errors, 0 links lost (every link the server
 * said it applied is a row, counted per client's directory).
 */
import type { RunningStack } from '../../supabase/local/server.ts';
import { LOAD_SEEDED_LINKS, loadClients, runClients } from './load.ts';
import { percentile, type Measure } from './stats.ts';

const median = (values: number[]) => percentile(values, 50);

export interface SoakPlan {
  clients: number;
  seconds: number;
  log: (message: string) => void;
}

interface MemorySample {
  at: number;
  rssMb: number;
  heapMb: number;
}

const WARM_UP_S = 120;

export async function soak(stack: RunningStack, postgres: boolean, plan: SoakPlan): Promise<Measure[]> {
  plan.log(`soak: signing up ${plan.clients} accounts`);
  const clients = await loadClients(stack, plan.clients, 'soak');
  const samples: MemorySample[] = [];
  const started = performance.now();
  const sample = () => {
    const memory = process.memoryUsage();
    samples.push({
      at: (performance.now() - started) / 1000,
      rssMb: memory.rss / 2 ** 20,
      heapMb: memory.heapUsed / 2 ** 20,
    });
  };
  sample();
  const sampler = setInterval(sample, 10_000);
  plan.log(`soak: ${plan.clients} clients syncing for ${plan.seconds} s`);
  let result;
  try {
    result = await runClients({
      url: stack.url,
      anonKey: stack.keys.anonKey,
      seconds: plan.seconds,
      batch: 5,
      thinkMs: 1000,
      clients,
    });
  } finally {
    clearInterval(sampler);
    sample();
  }

  // Every link the server said it applied is a row: nothing lost, nothing twice.
  let lost = 0;
  for (const [i, client] of clients.entries()) {
    const { rows } = await stack.db.query<{ n: string }>(
      'select count(*) as n from public.saved_links where directory_id = $1 and deleted_at is null',
      [client.directoryId],
    );
    lost += LOAD_SEEDED_LINKS + (result.created[i] ?? 0) - Number(rows[0]?.n ?? 0);
  }

  // Memory over time, a line a minute, and its growth after the warm-up.
  for (let minute = 0; minute * 60 <= plan.seconds; minute += 1) {
    const inMinute = samples.filter((s) => s.at >= minute * 60 && s.at < (minute + 1) * 60);
    const pushes = result.push.filter((_, i) => {
      const at = result.pushAt[i] ?? -1;
      return at >= minute * 60 && at < (minute + 1) * 60;
    });
    if (inMinute.length === 0) continue;
    plan.log(
      `soak minute ${minute}: rss ${median(inMinute.map((s) => s.rssMb)).toFixed(0)} MB, heap ${median(inMinute.map((s) => s.heapMb)).toFixed(0)} MB, push p99 ${pushes.length ? percentile(pushes, 99).toFixed(0) : '–'} ms (${pushes.length} pushes)`,
    );
  }
  const warmUp = Math.min(WARM_UP_S, plan.seconds / 3);
  const warm = samples.filter((s) => s.at >= warmUp);
  const third = Math.max(1, Math.floor(warm.length / 3));
  const first = median(warm.slice(0, third).map((s) => s.rssMb));
  const last = median(warm.slice(-third).map((s) => s.rssMb));
  const growth = ((last - first) / first) * 100;

  const label = `${plan.clients} clients × ${plan.seconds} s`;
  const where = postgres ? 'PostgreSQL' : 'PGlite: reported only, the bars are for PostgreSQL';
  const errors = [...new Set(result.errors)].slice(0, 3).join(' | ');
  return [
    {
      name: `soak: stack memory growth after warm-up, ${label}`,
      unit: '%',
      samples: [growth],
      bar: postgres ? { median: 10 } : undefined,
      note: `rss ${first.toFixed(0)} → ${last.toFixed(0)} MB (medians of the first and last thirds after a ${warmUp.toFixed(0)} s warm-up)`,
    },
    {
      name: `soak: push, ${label}`,
      unit: 'ms',
      samples: result.push,
      bar: postgres ? { p99: 500 } : undefined,
      note: `${where}; ${result.push.length} pushes, ${result.mutations} mutations, ${result.errors.length} errors, ${lost} links lost`,
      failed:
        result.errors.length > 0
          ? `${result.errors.length} errors: ${errors}`
          : lost !== 0
            ? `${lost} links lost`
            : undefined,
    },
  ];
}
