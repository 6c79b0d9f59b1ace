/**
 * The run's plan and its parts (tests/bench/run.ts): the sample counts and sizes from the
 * environment (BENCH_QUICK, BENCH_*), which parts run (BENCH_ONLY, BENCH_SKIP), a crash kept per
 * part, and the report at the end (the table, bench/results.json, the exit code).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { projectRoot } from '../../supabase/local/app.ts';
import { chromiumPath } from './browser.ts';
import type { Plan } from './measures.ts';
import { summarize, table, type Measure } from './stats.ts';

export const quick = process.env.BENCH_QUICK === '1';
const reportOnly = process.env.BENCH_REPORT_ONLY === '1';
export const number = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
export const plan: Plan & {
  realtimeSamples: number;
  capMs: number;
  lighthouseRuns: number;
  pushSamples: number;
  loadClients: number;
  scaleLoadClients: number;
  loadSeconds: number;
  soakClients: number;
  soakSeconds: number;
  fanoutClients: number;
  fanoutRounds: number;
} = {
  warmups: number('BENCH_WARMUPS', quick ? 2 : 5),
  samples: number('BENCH_SAMPLES', quick ? 5 : 20),
  pushSamples: number('BENCH_PUSH_SAMPLES', quick ? 2 : 20),
  realtimeSamples: number('BENCH_REALTIME_SAMPLES', quick ? 3 : 20),
  capMs: number('BENCH_REALTIME_CAP_MS', 35_000),
  lighthouseRuns: number('BENCH_LIGHTHOUSE_RUNS', quick ? 1 : 5),
  loadClients: number('BENCH_LOAD_CLIENTS', 50),
  scaleLoadClients: number('BENCH_SCALE_LOAD_CLIENTS', 200),
  loadSeconds: number('BENCH_LOAD_SECONDS', quick ? 20 : 60),
  soakClients: number('BENCH_SOAK_CLIENTS', 50),
  soakSeconds: number('BENCH_SOAK_SECONDS', 900),
  fanoutClients: number('BENCH_FANOUT_CLIENTS', 1000),
  fanoutRounds: number('BENCH_FANOUT_ROUNDS', quick ? 2 : 10),
  log: (message) => console.log(`[bench ${((performance.now() - started) / 1000).toFixed(0)} s] ${message}`),
};
const started = performance.now();
/**
 * The measures whose rounds take seconds each (a first pull of 10,000 links, an import of 5,000):
 * in quick mode one warm-up and three samples, which keeps CI's pass short.
 */
export const heavyPlan: Plan = quick ? { ...plan, warmups: 1, samples: 3 } : plan;
/**
 * BENCH_ONLY=routes,lighthouse,small,realtime,fanout,mid,big,duplicates,broken-links,preview,calendar,dashboard,palette,find-a-time,plain-words,theme,import,push,load: run only these
 * parts (a partial run
 * never passes as a whole). `scale` (100,000 links, docs/scale.md), `search-scale` (100,000 links with words,
 * BENCH_SEARCH_LINKS), `boot` and `boot-scale` (the three offline warm starts at 1,000 and at 100,000 links,
 * tests/bench/boot-scale.ts), `import-large`, `bad-input` and `soak` (50 clients for 15 minutes on PostgreSQL,
 * docs/faults.md) run only when named.
 */
const only = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const optIn = new Set(['scale', 'soak', 'search-scale', 'boot', 'boot-scale', 'import-large', 'bad-input']);
// The scale part's calendar measures alone, on an account of only the calendar's rows (calendar-scale.ts).
optIn.add('calendar-scale');
/** BENCH_SKIP=load,…: leave these parts out (CI's pass on PGlite leaves out the load run, which has its own step on PostgreSQL). */
const skip = new Set(process.env.BENCH_SKIP?.split(',').map((part) => part.trim()));
const want = (part: string) => !skip.has(part) && (only ? only.includes(part) : !optIn.has(part));
const crashes: string[] = [];

/** Runs one part of the bench; a crash is reported, the other parts still run, and the run fails. */
export async function part(name: string, body: () => Promise<void>): Promise<void> {
  if (!want(name)) return;
  try {
    await body();
  } catch (error) {
    console.error(error);
    crashes.push(`${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}

/** Prints the table, writes bench/results.json, and sets the exit code (a crash, or a bar missed unless BENCH_REPORT_ONLY). */
export function report(measures: Measure[], database: string): void {
  const summaries = measures.map(summarize);
  console.log(`\n${table(summaries)}\n`);
  const seconds = (performance.now() - started) / 1000;
  const out = join(projectRoot, 'bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'results.json'),
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        mode: quick ? 'quick' : 'full',
        seconds: Math.round(seconds),
        database,
        browser: chromiumPath,
        cpus: cpus().length,
        node: process.version,
        results: summaries,
      },
      null,
      2,
    )}\n`,
  );
  plan.log(`wrote bench/results.json; ${seconds.toFixed(0)} s in all`);
  const missed = summaries.filter((summary) => summary.pass === false);
  if (crashes.length) {
    plan.log(`CRASHED: ${crashes.join('; ')}`);
    process.exitCode = 1;
  }
  if (only) plan.log(`partial run (BENCH_ONLY=${only.join(',')})`);
  if (skip.size > 0) plan.log(`partial run (BENCH_SKIP=${[...skip].join(',')})`);
  if (missed.length && reportOnly) plan.log(`${missed.length} bar(s) missed (BENCH_REPORT_ONLY: not failing)`);
  else if (missed.length) {
    plan.log(`${missed.length} bar(s) missed`);
    process.exitCode = 1;
  }
}
