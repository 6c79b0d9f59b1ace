/**
 * `npm run bench`: every bar of docs/bench.md, measured in real Chromium (Playwright,
 * /usr/bin/chromium) on the bench's own build of the app against the local stack on a free port
 * (docs/bench.md). Prints a table, writes bench/results.json, and exits 1 when a bar is missed
 * (BENCH_REPORT_ONLY=1: print only; a crash still fails). BENCH_QUICK=1: fewer samples (CI).
 */
import type { BrowserContext } from 'playwright';
import { calendarWarmStart, openCalendar, seriesToUi } from './calendar.ts';
import { dashboardWarmStart, openDashboard, seedDashboard, voteToUi } from './dashboard.ts';
import { duplicateCheck } from './duplicates.ts';
import { paletteMeasures } from './palette.ts';
import { findATimeMeasures } from './find-a-time.ts';
import { brokenLinkPass } from './broken-links.ts';
import { previewToUi, startPreviewFixture } from './link-preview.ts';
import { launch, newContext, openDirectory, signIn, waitFor, waitSynced, watchRealtime } from './browser.ts';
import { firstPull, mutationToUi, noopSync, otherDevice, push, search } from './measures.ts';
import { warmStart } from './warm-start.ts';
import { load } from './load.ts';
import { soak } from './soak.ts';
import { realtimeFanout } from './realtime-fanout.ts';
import { jsPerRoute, lighthouseScores } from './routes.ts';
import { scale } from './scale.ts';
import { calendarScale } from './calendar-scale.ts';
import { badInputAtScale } from './bad-input.ts';
import { searchScale } from './search-scale.ts';
import { bootBars, bootScale } from './boot-scale.ts';
import { readPlanInPage } from './plain-words.ts';
import { darkColdStart } from './theme.ts';
import { exportLinks, importBookmarks, importLargeFile } from './transfer.ts';
import { buildApp, seedCalendar, seedDirectory, signUp, startBenchStack } from './setup.ts';
import { type Measure } from './stats.ts';
import { freePort } from '../support/free-port.ts';
import { heavyPlan, number, part, plan, quick, report } from './run-plan.ts';

async function main(): Promise<void> {
  plan.log(`building the app into .bench/dist (VITE_BENCH=1)${quick ? '; quick mode' : ''}`);
  buildApp();
  const { stack, database } = await startBenchStack();
  plan.log(`local stack on ${stack.url} (${database})`);
  /** An import of a 200,000-bookmark file into an account of its own (docs/import.md, Large files). */
  const importLarge = async (): Promise<Measure[]> => {
    const importer = await signUp(stack, 'bigimp', 'pro');
    const importContext = await context();
    const importPage = await signIn(importContext, importer, 0);
    const result = await importLargeFile(importPage, importer.username, 200_000, ownedLinks(importer.id), plan.log);
    await importContext.close();
    return result;
  };
  /** The live links a user owns on the server. */
  const ownedLinks = (owner: string) => async () =>
    Number(
      (
        await stack.db.query<{ n: string }>(
          'select count(*) as n from public.saved_links where owner_id = $1 and deleted_at is null',
          [owner],
        )
      ).rows[0]?.n ?? 0,
    );
  const debuggingPort = await freePort();
  const browser = await launch(debuggingPort);
  const measures: Measure[] = [];
  const contexts: BrowserContext[] = [];
  const context = async () => {
    const created = await newContext(browser, stack);
    contexts.push(created);
    return created;
  };
  try {
    plan.log('signing up and seeding: 20, 1,000 (+ 500 events) and 10,000 links, a push account');
    const small = await signUp(stack, 'small', 'pro');
    const smallDir = await seedDirectory(stack, small, 'Bench 20', 20, true);

    // Sizes and bytes first, on a quiet machine: JS per route, then Lighthouse.
    const smallContext = await context();
    const smallPage = await signIn(smallContext, small, 20);
    const routes = [
      { name: 'landing page', path: '/', budgetKb: 100 },
      { name: 'sign-in', path: '/Login' },
      { name: 'public directory (visitor)', path: `/Links/${small.username}/dir/${smallDir}`, budgetKb: 100 },
      { name: 'public profile (visitor)', path: `/${small.username}`, budgetKb: 100 },
    ];
    await part('routes', async () => {
      plan.log('JS per route');
      const dashboard = `/Dashboard/${small.username}`;
      const signedIn = { name: 'signed-in dashboard', path: dashboard, budgetKb: 200, context: smallContext };
      measures.push(...(await jsPerRoute(browser, stack, [...routes, signedIn])));
    });
    await part('lighthouse', async () => {
      plan.log(`Lighthouse, ${plan.lighthouseRuns} run(s) per route`);
      measures.push(...(await lighthouseScores(debuggingPort, stack, routes, plan.lighthouseRuns, plan.log)));
    });
    await openDirectory(smallPage, small, smallDir);
    await part('small', async () => {
      plan.log('mutation → UI, 20 links');
      measures.push(...(await mutationToUi(smallPage, '20', plan)));
    });
    await part('realtime', async () => {
      plan.log('a change on another device (both online)');
      const otherContext = await context();
      const realtime = watchRealtime(otherContext);
      const otherPage = await signIn(otherContext, small, 20);
      const joined = realtime.next();
      await openDirectory(otherPage, small, smallDir);
      await joined;
      measures.push(await otherDevice(smallPage, otherPage, plan));
      await otherContext.close();
    });
    await part('fanout', async () => {
      plan.log(`Realtime: ${plan.fanoutClients} sockets, one poke to 100 of them`);
      const author = await signUp(stack, 'fanout', 'pro');
      const fanout = { clients: plan.fanoutClients, listeners: 100, rounds: plan.fanoutRounds, log: plan.log };
      measures.push(await realtimeFanout(stack, author, fanout));
    });
    await smallContext.close();

    await part('mid', async () => {
      plan.log('1,000 links: mutation → UI, offline warm start, no-op sync');
      const mid = await signUp(stack, 'mid', 'pro');
      const midDir = await seedDirectory(stack, mid, 'Bench 1000', 1000);
      await seedCalendar(stack, mid, 500);
      const midContext = await context();
      const midPage = await signIn(midContext, mid, 1000);
      await openDirectory(midPage, mid, midDir);
      measures.push(...(await mutationToUi(midPage, '1,000', plan)));
      measures.push(await warmStart(midContext, midPage, plan));
      measures.push(...(await noopSync(midPage, plan)));
      await midContext.close();
    });

    await part('big', async () => {
      plan.log('10,000 links: search, mutation → UI, first pull');
      const big = await signUp(stack, 'big', 'pro');
      const bigDir = await seedDirectory(stack, big, 'Bench 10000', 10_000);
      const bigContext = await context();
      const bigPage = await signIn(bigContext, big, 10_000);
      await openDirectory(bigPage, big, bigDir);
      measures.push(await search(bigPage, 10_000, plan));
      measures.push(...(await mutationToUi(bigPage, '10,000', plan)));
      await bigPage.goto(`/Dashboard/${big.username}`);
      await waitFor(bigPage, 'window.__linkboardBench?.ready()');
      await waitSynced(bigPage, 10_000);
      measures.push(...(await firstPull(bigPage, 10_000, heavyPlan)));
      plan.log('10,000 links: export as a bookmarks file');
      measures.push(await exportLinks(bigPage, big.username, 10_000, plan));
      await bigContext.close();
    });

    await part('duplicates', async () => {
      plan.log("10,000 links: Add Link's duplicate check");
      const owner = await signUp(stack, 'dupes', 'pro');
      const dir = await seedDirectory(stack, owner, 'Bench dupes', 10_000);
      const dupesContext = await context();
      const dupesPage = await signIn(dupesContext, owner, 10_000);
      await openDirectory(dupesPage, owner, dir);
      measures.push(...(await duplicateCheck(dupesPage, 10_000, 'Bench dupes', plan)));
      await dupesContext.close();
    });

    await part('preview', async () => {
      plan.log('a saved link → its preview painted');
      const site = await startPreviewFixture();
      const before = process.env.PREVIEW_FETCH_ALLOW;
      process.env.PREVIEW_FETCH_ALLOW = `127.0.0.1:${site.port}`;
      try {
        const owner = await signUp(stack, 'previews', 'pro');
        const dir = await seedDirectory(stack, owner, 'Bench previews', 1);
        const previewContext = await context();
        const previewPage = await signIn(previewContext, owner, 1);
        await openDirectory(previewPage, owner, dir);
        measures.push(...(await previewToUi(previewPage, site.url, plan)));
        await previewContext.close();
      } finally {
        if (before === undefined) delete process.env.PREVIEW_FETCH_ALLOW;
        else process.env.PREVIEW_FETCH_ALLOW = before;
        await site.close();
      }
    });

    await part('broken-links', async () => {
      measures.push(...(await brokenLinkPass(plan.log)));
    });

    await part('calendar', async () => {
      plan.log('calendar, 500 events + 200 tasks: offline warm start, a 365-occurrence series → UI');
      const planner = await signUp(stack, 'cal', 'pro');
      const seed = await seedCalendar(stack, planner, 500, 200);
      const calendarContext = await context();
      const calendarPage = await signIn(calendarContext, planner, { calendar_events: seed.events + seed.tasks });
      await openCalendar(calendarPage, planner);
      measures.push(await calendarWarmStart(calendarContext, calendarPage, seed, plan));
      await waitSynced(calendarPage, { calendar_events: seed.events + seed.tasks });
      measures.push(await seriesToUi(calendarContext, calendarPage, plan));
      await calendarContext.close();
    });

    await part('dashboard', async () => {
      plan.log('dashboard, 1,000 links + 500 events + 100 polls: offline warm start; a vote → UI');
      const dashboardContext = await context();
      const { page, seed } = await seedDashboard(stack, dashboardContext, plan.warmups + plan.samples);
      await openDashboard(page, seed.account);
      measures.push(await dashboardWarmStart(dashboardContext, page, seed, plan));
      measures.push(await voteToUi(page, seed, plan));
      await dashboardContext.close();
    });

    await part('palette', async () => {
      plan.log('command palette, 10,000 links + 1,000 events + 100 polls: open, index, keystroke');
      const paletteContext = await context();
      measures.push(...(await paletteMeasures(stack, paletteContext, plan)));
      await paletteContext.close();
    });

    await part('find-a-time', async () => {
      plan.log('find a time: an answer on a 20-slot team poll with 10 voters → grid and counts');
      const timeContext = await context();
      measures.push(await findATimeMeasures(stack, timeContext, plan));
      await timeContext.close();
    });

    await part('plain-words', async () => {
      plan.log('typed plan: readPlan over 200 phrases in the page');
      const wordsContext = await context();
      const wordsPage = await signIn(wordsContext, small, 20);
      measures.push(...(await readPlanInPage(wordsPage)));
      await wordsContext.close();
    });

    await part('theme', async () => {
      plan.log('dark theme: cold starts, frames painted in the light theme');
      const themed = await signUp(stack, 'theme', 'free');
      measures.push(...(await darkColdStart(browser, stack, themed, plan)));
    });

    await part('import', async () => {
      plan.log('import 5,000 bookmarks');
      const importer = await signUp(stack, 'import', 'pro');
      const importContext = await context();
      const importPage = await signIn(importContext, importer, 0);
      measures.push(await importBookmarks(importPage, importer.username, 5000, heavyPlan));
      await importContext.close();
    });

    await part('bad-input', async () => {
      const dir = await seedDirectory(stack, small, 'Bad input', 0);
      measures.push(...(await badInputAtScale(stack, small, dir, plan.log)));
    });

    await part('import-large', async () => {
      measures.push(...(await importLarge()));
    });

    await part('push', async () => {
      plan.log('push 1,000 queued mutations');
      const pusher = await signUp(stack, 'push', 'pro');
      const pushDirs: string[] = [];
      for (let i = 0; i < 4; i += 1) pushDirs.push(await seedDirectory(stack, pusher, `Push ${i}`, 0));
      const pushContext = await context();
      const pushPage = await signIn(pushContext, pusher, 0);
      const pushPlan = { ...plan, samples: plan.pushSamples, warmups: 1 };
      measures.push(...(await push(pushContext, pushPage, pushDirs, pushPlan)));
      await pushContext.close();
    });

    await part('load', async () => {
      const postgres = database.startsWith('PostgreSQL');
      measures.push(
        ...(await load(stack, postgres, { clients: plan.loadClients, seconds: plan.loadSeconds, log: plan.log })),
      );
    });

    await part('soak', async () => {
      const postgres = database.startsWith('PostgreSQL');
      measures.push(
        ...(await soak(stack, postgres, { clients: plan.soakClients, seconds: plan.soakSeconds, log: plan.log })),
      );
    });

    await part('search-scale', async () => {
      const links = number('BENCH_SEARCH_LINKS', 100_000);
      plan.log(`search-scale: ${links.toLocaleString('en')} links with words in up to 200 directories`);
      measures.push(...(await searchScale(stack, context, plan, links)));
    });

    await part('boot', async () => {
      plan.log('offline warm starts, 1,000 links, 500 events, 200 tasks: a directory, the calendar, the dashboard');
      measures.push(...(await bootBars(stack, context, plan)));
    });

    await part('boot-scale', async () => {
      plan.log('offline warm starts, 100,000 links in 200 directories, 10,000 events, 1,000 tasks');
      measures.push(...(await bootScale(stack, context, plan)));
    });

    await part('calendar-scale', async () => {
      plan.log('calendar-scale: 10,000 events and 1,000 tasks in one account (docs/scale.md)');
      measures.push(...(await calendarScale(stack, context, plan)));
    });

    await part('scale', async () => {
      plan.log('scale: 99,600 links in 200 directories, 10,000 events and 1,000 tasks in one account');
      measures.push(...(await scale(stack, context, plan)));
      // BENCH_SCALE_SCROLL=1: the far scrolls alone (scale.ts).
      if (process.env.BENCH_SCALE_SCROLL === '1') return;
      // An import of a 200,000-bookmark file, in an account of its own (docs/import.md, Large files).
      measures.push(...(await importLarge()));
      // The server under 200 clients (the load run's bar is for PostgreSQL).
      const postgres = database.startsWith('PostgreSQL');
      measures.push(
        ...(await load(stack, postgres, { clients: plan.scaleLoadClients, seconds: plan.loadSeconds, log: plan.log })),
      );
    });
  } finally {
    for (const opened of contexts) await opened.close().catch(() => undefined);
    await browser.close();
    await stack.close();
  }

  report(measures, database);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
