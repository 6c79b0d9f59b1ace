/**
 * Writes at scale (docs/scale.md): one Pro account with 100,000 links in 200 directories of 500.
 *
 * - `queueWrites`: 1,000 link.create one by one through the app's `mutate` (each awaited, as a
 *   loop of single saves), into the directory the page shows, offline: from the first call to the
 *   last one resolved (each durable in IndexedDB when it resolves). Bar: median ≤ 2 s.
 * - `push5000`: 5,000 link.create queued offline (untimed, through mutateMany), then the context
 *   back online: from the `online` event to the status Synced with the outbox empty (the pushes and
 *   the pull after them). Bar: median ≤ 5 s.
 *
 * The scale part (tests/bench/scale.ts) measures both through `writesAtScale`, on its account. Run
 * on its own: `npx tsx tests/bench/writes-scale.ts` (BENCH_DATABASE_URL for PostgreSQL,
 * BENCH_QUICK=1 for fewer samples, BENCH_NOBUILD=1 to reuse .bench/dist, BENCH_ONLY=queue or push
 * for one of them); it seeds with `seedDirectories` and measures on its signed-in page with a
 * directory screen open.
 */
import type { BrowserContext, Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { hook, run, waitFor, waitSynced } from './browser.ts';
import type { Plan } from './measures.ts';
import { seedDirectory, seededTitle, type Account } from './setup.ts';
import { percentile, type Measure } from './stats.ts';

export const SCALE_DIRECTORIES = 200;
export const LINKS_PER_DIRECTORY = 500;

/** `directories` directories of `links` links each (seedDirectory's rows), in one statement each. */
export async function seedDirectories(
  stack: RunningStack,
  owner: Account,
  directories = SCALE_DIRECTORIES,
  links = LINKS_PER_DIRECTORY,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < directories; i += 1) ids.push(await seedDirectory(stack, owner, `Scale ${i}`, links));
  return ids;
}

/**
 * BENCH_PROFILE=1: Chrome's CPU profile of the first timed round, written to
 * bench/<name>.cpuprofile (build with BENCH_NOMINIFY=1 for readable names).
 */
export async function startProfile(page: Page): Promise<(name: string) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async (name) => {
    const { profile } = await cdp.send('Profiler.stop');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync('bench', { recursive: true });
    writeFileSync(`bench/${name}.cpuprofile`, JSON.stringify(profile));
    await cdp.detach();
  };
}

/** Back online, then until the status says Synced with the outbox empty (untimed). */
async function drain(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(false);
  await waitFor(page, hook('sync()').concat(".then((t) => t.outcome === 'synced' && t.outbox === 0)"), 300_000);
}

/**
 * 1,000 awaited `mutate('link.create')` into `directoryId`, the directory the page shows, offline
 * (no sync shares the time); each round is pushed afterwards, untimed. The newest link must be
 * on screen after each round.
 */
export async function queueWrites(
  context: BrowserContext,
  page: Page,
  directoryId: string,
  plan: Plan,
  count = 1000,
): Promise<Measure[]> {
  const samples: number[] = [];
  const floor: number[] = [];
  const tag = Date.now().toString(36);
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    await context.setOffline(true);
    const prefix = `q${tag}r${i}`;
    const profile = process.env.BENCH_PROFILE && i === plan.warmups ? await startProfile(page) : null;
    const ms = await run<number>(page, hook(`queueLinks(${JSON.stringify(directoryId)}, ${count}, '${prefix}')`));
    if (profile) await profile(`queue-${count}`);
    // The screen shows the last write (the grid's first card is the newest link).
    await page
      .getByText(`${prefix} ${count - 1}`, { exact: true })
      .first()
      .waitFor({ timeout: 30_000 });
    // The floor under it, in the same database at the same size: plain IndexedDB asked the same.
    const floorMs = await run<number>(page, hook(`queueFloor(${JSON.stringify(directoryId)}, ${count}, 'f${prefix}')`));
    if (i >= plan.warmups) {
      samples.push(ms);
      floor.push(floorMs);
    }
    plan.log(`queue ${count} writes, round ${i + 1}: ${ms.toFixed(0)} ms (plain IndexedDB ${floorMs.toFixed(0)} ms)`);
    await drain(context, page);
  }
  const queue: Measure = {
    name: `queue ${count.toLocaleString('en')} writes one by one, directory open, 100,000 links`,
    unit: 'ms',
    samples,
    bar: { median: 2000 },
    limit: { name: 'plain IndexedDB asked the same', median: percentile(floor, 50) },
    note:
      'awaited mutate(link.create) into the directory on screen, offline; first call to the last resolved. ' +
      "Limit: as many plain IndexedDB transactions, each asking what a new link's save asks (src/perf/queue-floor.ts)",
  };
  const plain: Measure = {
    name: `the floor: ${count.toLocaleString('en')} plain IndexedDB transactions of a save's requests`,
    unit: 'ms',
    samples: floor,
    note: 'reported only: the same database after the queued saves, offline, nothing on screen told',
  };
  return [queue, plain];
}

/** 5,000 link.create queued offline over `directoryIds`; back online, time to Synced with the outbox empty. */
export async function push5000(
  context: BrowserContext,
  page: Page,
  directoryIds: string[],
  plan: Plan,
  count = 5000,
): Promise<Measure> {
  const samples: number[] = [];
  const notes: string[] = [];
  const tag = Date.now().toString(36);
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    // Five directories a round, each round others (a directory of the Pro plan has no limit).
    const dirs = Array.from({ length: 5 }, (_, k) => directoryIds[(i * 5 + k) % directoryIds.length]!);
    await context.setOffline(true);
    await run(page, hook(`queueLinksMany(${JSON.stringify(dirs)}, ${count}, 'p${tag}r${i}')`));
    await run(page, 'performance.clearResourceTimings()');
    await run(page, hook('armOnline()'));
    const profile = process.env.BENCH_PROFILE && i === plan.warmups ? await startProfile(page) : null;
    await context.setOffline(false);
    const done = await run<{ ms: number; pushMs: number; pushes: number; outbox: number }>(
      page,
      hook('onlineToSynced()'),
    );
    if (profile) await profile(`push-${count}`);
    if (done.outbox !== 0) throw new Error(`push5000: ${done.outbox} left in the outbox`);
    if (i >= plan.warmups) {
      samples.push(done.ms);
      notes.push(`${done.pushes} pushes, ${done.pushMs.toFixed(0)} ms in sync_push`);
    }
    plan.log(
      `push ${count}, round ${i + 1}: ${done.ms.toFixed(0)} ms (${done.pushes} sync_push calls, ${done.pushMs.toFixed(0)} ms)`,
    );
  }
  return {
    name: `push ${count.toLocaleString('en')} queued mutations (online → Synced), 100,000 links`,
    unit: 'ms',
    samples,
    bar: { median: 5000 },
    note: `from the online event to Synced with the outbox empty; ${notes.join('; ')}`,
  };
}

/** An in-app navigation (react-router listens to popstate), then until a link card shows. */
async function openPath(page: Page, path: string): Promise<void> {
  await run(page, `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`);
  await page.locator('[data-testid="link-card"]').first().waitFor({ timeout: 60_000 });
}

/**
 * The scale part's writes (tests/bench/scale.ts): 1,000 saves queued into the first of
 * `directoryIds` with it on screen, then 5,000 pushed over the next five a round; the page is back
 * on `returnTo` (an app path) afterwards, for the measures after them.
 */
export async function writesAtScale(
  context: BrowserContext,
  page: Page,
  owner: Account,
  directoryIds: readonly string[],
  returnTo: string,
  plan: Plan,
): Promise<Measure[]> {
  const [open, ...others] = directoryIds;
  if (!open || others.length === 0) throw new Error('writesAtScale: at least two directories');
  await openPath(page, `/Links/${owner.username}/dir/${open}`);
  const measures = await queueWrites(context, page, open, plan);
  measures.push(await push5000(context, page, others, plan));
  await openPath(page, returnTo);
  return measures;
}

/** Run alone: its own build, stack, account and Chromium. */
async function main(): Promise<void> {
  const { performance } = await import('node:perf_hooks');
  const { buildApp, signUp, startBenchStack } = await import('./setup.ts');
  const { launch, newContext, openDirectory, signIn } = await import('./browser.ts');
  const { summarize, table } = await import('./stats.ts');
  const { freePort } = await import('../support/free-port.ts');
  const quick = process.env.BENCH_QUICK === '1';
  const started = performance.now();
  const log = (message: string) =>
    console.log(`[writes ${((performance.now() - started) / 1000).toFixed(0)} s] ${message}`);
  const samples = Number(process.env.BENCH_SAMPLES) || (quick ? 3 : 5);
  const plan: Plan = { warmups: Number(process.env.BENCH_WARMUPS) || 1, samples, log };
  const only = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
  const want = (part: string) => !only || only.includes(part);
  if (!process.env.BENCH_NOBUILD) {
    log('building the app into .bench/dist (VITE_BENCH=1)');
    buildApp();
  }
  const { stack, database } = await startBenchStack();
  log(`local stack on ${stack.url} (${database})`);
  const browser = await launch(await freePort());
  const measures: Measure[] = [];
  try {
    const account = await signUp(stack, 'writes', 'pro');
    const dirs = await seedDirectories(stack, account);
    log(`seeded ${SCALE_DIRECTORIES * LINKS_PER_DIRECTORY} links in ${SCALE_DIRECTORIES} directories`);
    const context = await newContext(browser, stack);
    const page = await signIn(context, account, 0);
    await waitSynced(page, SCALE_DIRECTORIES * LINKS_PER_DIRECTORY, 900_000);
    log('signed in and synced');
    await openDirectory(page, account, dirs[0]!);
    await page.getByText(seededTitle(1), { exact: true }).first().waitFor();
    if (want('queue')) measures.push(...(await queueWrites(context, page, dirs[0]!, plan)));
    if (want('push')) measures.push(await push5000(context, page, dirs.slice(1), plan));
    await context.close();
  } finally {
    await browser.close();
    await stack.close();
  }
  console.log(`\n${table(measures.map(summarize))}\n`);
}

if (process.argv[1]?.endsWith('writes-scale.ts')) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
