/**
 * Where a first sync's time goes at the scale bench's size (docs/scale.md): the scale account
 * seeded, signed in on a new device with the renderer's CPU profiled (CDP Profiler) from the
 * click on Sign in to Synced; prints the time to the dashboard, to Synced, the sync_pull calls'
 * server and transfer time and the functions with the most self time. With PROFILE_WORDS=1, the
 * pass that indexes the first sync's words after it is profiled too (until it ends), into
 * /tmp/words-pass.cpuprofile.
 * `npx tsx tests/bench/profile-first-sync.ts` (BENCH_DATABASE_URL for PostgreSQL; BENCH_SKIP_BUILD=1
 * reuses .bench/dist).
 */
import { writeFileSync } from 'node:fs';
import { launch, newContext, probeResult, probeStart, run, waitFor } from './browser.ts';
import { buildApp, seedCalendar, seedLibrary, signUp, startBenchStack } from './setup.ts';
import { freePort } from '../support/free-port.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_BUILD !== '1') buildApp();
  const { stack, database } = await startBenchStack();
  const browser = await launch(await freePort());
  try {
    const account = await signUp(stack, 'scale', 'pro');
    const big = Number(process.env.PROFILE_BIG ?? 20_000);
    const library = await seedLibrary(stack, account, { name: 'Scale', directories: 200, big, each: 400 });
    const calendar = await seedCalendar(stack, account, 10_000, 1_000, { count: 40, occurrences: 25 });
    console.log(`${database}: ${library.links} links, ${calendar.events + calendar.tasks} events`);
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await page.goto('/Login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
    await cdp.send('Profiler.start');
    await probeStart(page, 'signin', {
      event: 'click',
      check: 'dashboardShown',
      args: ['Welcome back, Bench!'],
      timeoutMs: 60_000,
    });
    await page.getByRole('button', { name: 'Sign in' }).click({ delay: 80 });
    const first = await probeResult(page, 'signin');
    await waitFor(page, 'window.__linkboardBench?.ready()');
    const badge = page.getByRole('status', { name: 'Sync status' }).first();
    for (;;) {
      if ((await badge.getAttribute('data-state').catch(() => null)) === 'synced') {
        const counts = await run<Record<string, number>>(page, 'window.__linkboardBench.counts()');
        if ((counts.saved_links ?? 0) >= library.links) break;
      }
      await page.waitForTimeout(100);
    }
    const done = Date.now() - first.eventAt!;
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
    writeFileSync('/tmp/first-sync.cpuprofile', JSON.stringify(profile));
    if (process.env.PROFILE_WORDS === '1') {
      await cdp.send('Profiler.start');
      while (await run<boolean>(page, 'window.__linkboardBench.wordBacklog()')) await page.waitForTimeout(100);
      const words = (await cdp.send('Profiler.stop')) as { profile: Profile };
      writeFileSync('/tmp/words-pass.cpuprofile', JSON.stringify(words.profile));
      console.log(`words indexed ${Date.now() - first.eventAt!} ms after the click`);
    }
    const pulls = await run<{ n: number; wait: number; transfer: number; starts: number[]; ends: number[] }>(
      page,
      `(() => { const c = performance.getEntriesByType('resource').filter((e) => e.name.includes('sync_pull'));
        return { n: c.length, wait: c.reduce((s, e) => s + e.responseStart - e.requestStart, 0),
          transfer: c.reduce((s, e) => s + e.responseEnd - e.responseStart, 0),
          starts: c.map((e) => Math.round(e.startTime)), ends: c.map((e) => Math.round(e.responseEnd)) }; })()`,
    );
    console.log(`dashboard ${first.toPaint?.toFixed(0)} ms; synced ${done} ms`);
    console.log(
      `sync_pull: ${pulls.n} calls, server ${pulls.wait.toFixed(0)} ms, transfer ${pulls.transfer.toFixed(0)} ms`,
    );
    console.log(`starts ${pulls.starts.join(' ')}`);
    console.log(`ends   ${pulls.ends.join(' ')}`);
    const self = new Map<string, number>();
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id)!;
      const url = node.callFrame.url.split('/').pop() ?? '';
      const key = `${node.callFrame.functionName || '(anonymous)'} ${url}:${node.callFrame.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
    for (const [name, ms] of top) console.log(`${ms.toFixed(0).padStart(7)} ms  ${name}`);
    await context.close();
  } finally {
    await browser.close();
    await stack.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
