/**
 * Two builds' offline warm starts side by side, samples alternated so both see the same load of a
 * shared machine (docs/bench.md, The offline warm start): BOOT_AB=dirA,dirB (two `vite build
 * --outDir` of bench builds, VITE_BENCH=1), BOOT_SAMPLES per build (default 8), BOOT_PATH
 * 'directory' (default), 'calendar' or 'dashboard'. Prints each build's samples and medians.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright';
import { authLimitsFrom } from '../../supabase/local/auth-limits.ts';
import { startStack, type RunningStack } from '../../supabase/local/server.ts';
import { launch, newContext, openDirectory, run, signIn, waitFor } from './browser.ts';
import { openCalendar } from './calendar.ts';
import { type FirstContent, type WarmStartSample, warmStartRuns } from './warm-start.ts';
import { seedCalendar, seedDirectory, signUp } from './setup.ts';
import { freePort } from '../support/free-port.ts';

const dists = (process.env.BOOT_AB ?? '').split(',').filter(Boolean);
const samples = Number(process.env.BOOT_SAMPLES ?? 8);
const what = process.env.BOOT_PATH ?? 'directory';

interface Side {
  name: string;
  stack: RunningStack;
  context: BrowserContext;
  page: Page;
  first: FirstContent;
  results: WarmStartSample[];
}

async function side(dist: string): Promise<Side> {
  const stack = await startStack({
    port: 0,
    host: '127.0.0.1',
    memory: true,
    staticDir: resolve(dist),
    jwtSecret: randomBytes(32).toString('base64url'),
    authLimits: authLimitsFrom(
      '{"signUp":{"max":1000},"signIn":{"max":1000},"mail":{"max":1000},"verify":{"max":1000}}',
    ),
  });
  const browser = await launch(await freePort());
  const context = await newContext(browser, stack);
  const account = await signUp(stack, 'boot', 'pro');
  const dir = await seedDirectory(stack, account, 'Bench 1000', 1000);
  const calendar = await seedCalendar(stack, account, 500, 200);
  const page = await signIn(context, account, { saved_links: 1000, calendar_events: 700 });
  let first: FirstContent = { check: 'anyItem' };
  if (what === 'calendar') {
    await openCalendar(page, account);
    first = { check: 'calendar', args: [calendar.pending, calendar.completed] };
  } else if (what === 'dashboard') {
    await page.goto(`/Dashboard/${account.username}`);
    await page.getByRole('heading', { name: "Today's Focus" }).waitFor({ timeout: 60_000 });
    const stats = {
      'Saved Links': 1000,
      'Calendar Events': 500,
      'Tasks Done': calendar.completed,
      'Polls This Month': 0,
    };
    first = { check: 'dashboard', args: ['Welcome back, Bench!', stats] };
  } else await openDirectory(page, account, dir);
  await waitFor(page, 'navigator.serviceWorker.controller !== null');
  await run(page, 'true');
  return { name: dist, stack, context, page, first, results: [] };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const sides: Side[] = [];
  for (const dist of dists) sides.push(await side(dist));
  const plan = { warmups: 0, samples: 1, log: () => undefined };
  // One warm-up each, then alternate.
  for (const s of sides) await warmStartRuns(s.context, s.page, s.first, plan);
  for (let i = 0; i < samples; i += 1) {
    for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
      s.results.push(...(await warmStartRuns(s.context, s.page, s.first, plan)));
    }
  }
  for (const s of sides) {
    const shown = s.results.map((r) => Math.round(r.presented ?? r.painted));
    console.log(
      `${s.name} (${what}): presented median ${median(shown)} ms [${shown.join(', ')}]; in the DOM median ${Math.round(median(s.results.map((r) => r.inDom)))} ms`,
    );
    await s.context.close();
    await s.stack.close();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
