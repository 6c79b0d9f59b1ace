/**
 * Where a queued save's time goes (docs/scale.md, the queued writes): `npx tsx tests/bench/queue-screens.ts`
 * queues QUEUE_COUNT (200) awaited link.create offline into a directory, QUEUE_ROUNDS (3) rounds on each
 * screen after one untimed round, the screens taking turns in one page (so both meet the same load):
 * the directory on screen, and the Profile screen (no list of links). Each round is pushed afterwards,
 * untimed. QUEUE_DIRECTORIES (20) directories of 500 links; PGlite unless BENCH_DATABASE_URL;
 * BENCH_NOBUILD=1 reuses .bench/dist; BENCH_PROFILE=1 writes round 1's CPU profiles to bench/queue-<screen>.cpuprofile.
 */
import { performance } from 'node:perf_hooks';
import { hook, launch, newContext, openDirectory, run, signIn, waitFor, waitSynced } from './browser.ts';
import { buildApp, seededTitle, signUp, startBenchStack } from './setup.ts';
import { freePort } from '../support/free-port.ts';
import { LINKS_PER_DIRECTORY, seedDirectories, startProfile } from './writes-scale.ts';

const directories = Number(process.env.QUEUE_DIRECTORIES) || 20;
const count = Number(process.env.QUEUE_COUNT) || 200;
const rounds = Number(process.env.QUEUE_ROUNDS) || 3;

async function main(): Promise<void> {
  const started = performance.now();
  const log = (message: string) =>
    console.log(`[queue-screens ${((performance.now() - started) / 1000).toFixed(0)} s] ${message}`);
  if (!process.env.BENCH_NOBUILD) buildApp();
  const { stack, database } = await startBenchStack();
  log(`local stack (${database})`);
  const browser = await launch(await freePort());
  try {
    const account = await signUp(stack, 'queue', 'pro');
    const dirs = await seedDirectories(stack, account, directories);
    const context = await newContext(browser, stack);
    const page = await signIn(context, account, 0);
    await waitSynced(page, directories * LINKS_PER_DIRECTORY, 900_000);
    await openDirectory(page, account, dirs[0]!);
    await page.getByText(seededTitle(1), { exact: true }).first().waitFor();
    const screens = { directory: `/Links/${account.username}/dir/${dirs[0]}`, profile: `/Profile/${account.username}` };
    const perSave: Record<string, number[]> = {};
    for (let round = 0; round <= rounds; round += 1) {
      for (const [screen, path] of Object.entries(screens)) {
        await run(
          page,
          `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`,
        );
        await page.waitForTimeout(1500);
        await context.setOffline(true);
        const call = `queueLinks(${JSON.stringify(dirs[0])}, ${count}, 'q${round}${screen}')`;
        const profile = process.env.BENCH_PROFILE && round === 1 ? await startProfile(page) : null;
        const ms = await run<number>(page, hook(call));
        if (profile) await profile(`queue-${screen}`);
        await context.setOffline(false);
        await waitFor(page, hook('sync()').concat(".then((t) => t.outcome === 'synced' && t.outbox === 0)"), 300_000);
        log(`round ${round}, ${screen}: ${ms.toFixed(0)} ms, ${(ms / count).toFixed(1)} ms a save`);
        if (round > 0) (perSave[screen] ??= []).push(ms / count);
      }
    }
    for (const [screen, values] of Object.entries(perSave)) {
      const median = [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      log(`${screen}: median ${median.toFixed(1)} ms a save [${values.map((v) => v.toFixed(1)).join(', ')}]`);
    }
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
