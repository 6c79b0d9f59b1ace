/**
 * The scale bench (docs/scale.md): one Pro account with 99,600 links in 200 directories (one of
 * 20,000, the others 400 each), 10,000 events (1,000 of them occurrences of weekly series) and
 * 1,000 tasks, in real Chromium against the local stack (PGlite, or PostgreSQL with
 * BENCH_DATABASE_URL). Run on its own: `BENCH_ONLY=scale npm run bench`. Every figure has its bar
 * beside it: the screens must be as fast as at 1,000 links.
 *
 * Other parts measure here too, each in its marked place below (search, writes, boot): a measure
 * function of theirs is called with the signed-in page on the screen it needs.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright';
import { openCalendar } from './calendar.ts';
import { HAND_CLICK, probeResult, probeStart, run, waitFor, waitSynced, type Expected } from './browser.ts';
import { calendarScreens, startProfile } from './calendar-scale.ts';
import { mutationToUi, noopSync, painted, search, type Plan } from './measures.ts';
import { warmStartSamples } from './warm-start.ts';
import { seedCalendar, seedLibrary, seededTitle, signUp, type Account } from './setup.ts';
import type { RunningStack } from '../../supabase/local/server.ts';
import type { Measure } from './stats.ts';
import { badInputAtScale } from './bad-input.ts';
import { writesAtScale } from './writes-scale.ts';

const DIRECTORIES = 200;
const BIG = 20_000;
const EACH = 400;
const EVENTS = 10_000;
const SERIES = { count: 40, occurrences: 25 };
const TASKS = 1_000;
/** The grid's row height and columns at the bench's desktop width (link-collection.tsx). */
const CARD_ROW_HEIGHT = 196;
const COLUMNS = 3;
/** Where the far scrolls go in the big directory (0-based link positions), in this order. */
const FAR = [
  1_000, 19_990, 7_300, 15_000, 3_100, 12_000, 18_000, 500, 9_000, 16_600, 2_500, 11_000, 6_000, 14_000, 19_000, 4_200,
  8_800, 13_500, 17_200, 10_000, 5_500, 16_000,
];
const HEAP_BAR_MB = 150;
/**
 * BENCH_SCALE_SCROLL=1: only the big directory is seeded, signed in on a new device, scrolled and
 * searched (the far scrolls' and the search's measures alone, in a minute rather than the part's several).
 */
const SCROLL_ONLY = process.env.BENCH_SCALE_SCROLL === '1';

const fmt = (n: number) => n.toLocaleString('en');

/** The bars of this bench (docs/scale.md). */
const BARS = {
  firstScreen: { median: 3_000 },
  firstSync: { median: 30_000 },
  scroll: { median: 16, p95: 50 },
  search: { median: 16, p95: 50 },
  heap: { median: HEAP_BAR_MB },
} as const;

/** An in-app navigation (react-router listens to popstate): the document, and its heap, stay. */
async function navigate(page: Page, path: string): Promise<void> {
  await run(page, `history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`);
}

/** The status badge says Synced (read every 100 ms: cheap), then the rows are checked once. */
async function syncedAt(page: Page, expected: Expected, timeoutMs: number): Promise<number> {
  const badge = page.getByRole('status', { name: 'Sync status' }).first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await badge.getAttribute('data-state').catch(() => null)) === 'synced') {
      const at = Date.now();
      const counts = await run<Record<string, number>>(page, 'window.__linkboardBench.counts()');
      const rows = typeof expected === 'number' ? { saved_links: expected } : expected;
      if (Object.entries(rows).every(([table, n]) => (counts[table] ?? 0) >= n)) return at;
    }
    if (Date.now() > deadline) throw new Error('scale: the first sync did not finish');
    await page.waitForTimeout(100);
  }
}

/** When the pass has indexed the words of every link the first sync brought (read every 100 ms). */
async function backlogDoneAt(page: Page, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await run<boolean>(page, 'window.__linkboardBench.wordBacklog()'))) return Date.now();
    if (Date.now() > deadline) throw new Error("scale: the first sync's words were not indexed");
    await page.waitForTimeout(100);
  }
}

/**
 * Sign-in on a new device: from the click on Sign in until the dashboard shows its heading and
 * stats (the first screen usable, while the rest streams in), and until the status says Synced
 * with every row local.
 */
async function signInMeasured(
  context: BrowserContext,
  account: Account,
  expected: Expected,
  rows: number,
): Promise<{ page: Page; measures: Measure[] }> {
  const page = await context.newPage();
  await page.goto('/Login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await probeStart(page, 'signin', {
    event: 'click',
    check: 'dashboardShown',
    args: ['Welcome back, Bench!'],
    timeoutMs: 60_000,
  });
  await page.getByRole('button', { name: 'Sign in' }).click(HAND_CLICK);
  const first = await probeResult(page, 'signin');
  const firstScreen = painted(first, 'sign-in → dashboard');
  await waitFor(page, 'window.__linkboardBench?.ready()');
  const done = (await syncedAt(page, expected, 180_000)) - first.eventAt!;
  const indexed = (await backlogDoneAt(page, 300_000)) - first.eventAt!;
  // Where the pull's time went: its sync_pull calls' server wait and transfer (Resource Timing).
  const pulls = await run<{ calls: number; wait: number; transfer: number; span: number }>(
    page,
    `(() => {
      const calls = performance.getEntriesByType('resource').filter((e) => e.name.includes('/rest/v1/rpc/sync_pull'));
      const sum = (f) => calls.reduce((n, e) => n + f(e), 0);
      return {
        calls: calls.length,
        wait: sum((e) => e.responseStart - e.requestStart),
        transfer: sum((e) => e.responseEnd - e.responseStart),
        span: calls.length ? calls.at(-1).responseEnd - calls[0].startTime : 0,
      };
    })()`,
  );
  const pullNote = `${pulls.calls} sync_pull calls: server ${(pulls.wait / 1000).toFixed(1)} s, transfer ${(pulls.transfer / 1000).toFixed(1)} s in all (the next pages are fetched while one is written); the first call to the last byte ${(pulls.span / 1000).toFixed(1)} s`;
  return {
    page,
    measures: [
      {
        name: 'sign-in → first screen usable (dashboard painted)',
        unit: 'ms',
        samples: [firstScreen],
        bar: BARS.firstScreen,
        note: "a new device: the click on Sign in until the dashboard's heading and stats are painted, while the first sync goes on (one sample)",
      },
      {
        name: `sign-in → everything synced, ${fmt(rows)} rows`,
        unit: 'ms',
        samples: [done],
        bar: BARS.firstSync,
        note: `the click on Sign in until the status badge says Synced with every row local (read every 100 ms; one sample); ${pullNote}`,
      },
      {
        name: "sign-in → every link found by search (the first sync's words indexed)",
        unit: 'ms',
        samples: [indexed],
        note: "the click on Sign in until the pass after the first sync has written every pulled link's words (src/data/word-backlog.ts; read every 100 ms; one sample; no bar: reported)",
      },
    ],
  };
}

/** The grid scrolled so link `index` (0-based) is in view: from the scroll event to its card painted. */
async function scrollTo(page: Page, index: number): Promise<number> {
  const title = seededTitle(index + 1);
  await probeStart(page, 'scroll', { event: 'scroll', check: 'hasTitle', args: [title], timeoutMs: 30_000 });
  await run(
    page,
    `document.querySelector('[role="region"][aria-label="Links grid"]').scrollTop = ${Math.floor(index / COLUMNS) * CARD_ROW_HEIGHT}`,
  );
  return painted(await probeResult(page, 'scroll'), `scroll to ${title}`);
}

/** The far scrolls of the big directory, the first one as the directory first shows. */
async function farScroll(page: Page, plan: Plan): Promise<Measure[]> {
  // BENCH_PROFILE=1 (or trace): Chrome's CPU profile (or trace) of every far scroll, the first one's too.
  const profile = process.env.BENCH_PROFILE ? await startProfile(page) : null;
  const first = await scrollTo(page, 12_345);
  // The other scrolls are of a directory open a moment: its links held in memory (held-directory.ts).
  await waitFor(page, `document.querySelector('[data-links="held"]') !== null`);
  const samples: number[] = [];
  const positions = FAR.slice(0, Math.max(FAR.length, plan.warmups + plan.samples));
  for (const [i, index] of positions.entries()) {
    const ms = await scrollTo(page, index);
    if (i >= plan.warmups) samples.push(ms);
  }
  await profile?.('far-scroll');
  await run(page, `document.querySelector('[role="region"][aria-label="Links grid"]').scrollTop = 0`);
  await page.locator('[data-testid="link-card"]').first().waitFor();
  return [
    {
      name: `first far scroll as the directory shows, ${fmt(BIG)} links`,
      unit: 'ms',
      samples: [first],
      bar: BARS.scroll,
      note: 'the grid scrolled to link 12,346 right after the directory first showed on this device: the scroll event to that card painted (one sample)',
    },
    {
      name: `scroll to any position → rows painted, ${fmt(BIG)} links`,
      unit: 'ms',
      samples,
      bar: BARS.scroll,
      note: `the grid scrolled to ${positions.length} positions from link 500 to 19,990 (${plan.warmups} warm-ups dropped), once the directory's links are held in memory (data-links="held"): the scroll event to that card painted`,
    },
  ];
}

/** JS heap in use after a full garbage collection (CDP: a precise figure, unlike performance.memory). */
async function heapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize / 2 ** 20;
}

/**
 * The heap after a tour of every screen, in one document (in-app navigations): Dashboard, Links,
 * the big directory scrolled to its end and back, Calendar, Voting, Profile. The palette is not
 * opened (it reads every link: the search part's own measure).
 */
async function heapAfterTour(page: Page, account: Account, big: string): Promise<Measure> {
  const cdp = await page.context().newCDPSession(page);
  const user = account.username;
  await navigate(page, `/Dashboard/${user}`);
  await page.getByRole('heading', { name: "Today's Focus" }).waitFor({ timeout: 60_000 });
  await navigate(page, `/Links/${user}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await navigate(page, `/Links/${user}/dir/${big}`);
  await page.locator('[data-testid="link-card"]').first().waitFor({ timeout: 60_000 });
  // Links added by the measures before sit at the top: each stop waits for any card, not a title.
  for (const index of [5_000, 10_000, 15_000, BIG - 1, 0]) {
    await run(
      page,
      `document.querySelector('[role="region"][aria-label="Links grid"]').scrollTop = ${Math.floor(index / COLUMNS) * CARD_ROW_HEIGHT}`,
    );
    await page.waitForTimeout(300);
    await page.locator('[data-testid="link-card"]').first().waitFor();
  }
  await navigate(page, `/Calendar/${user}`);
  await page.locator('#today-tasks').waitFor({ timeout: 60_000 });
  await navigate(page, `/Voting/${user}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await navigate(page, `/Profile/${user}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForTimeout(500);
  const mb = await heapMb(cdp);
  // ── search part: the heap with the palette opened (it reads every link) goes here, as a
  //    measure of its own without the heap bar (docs/scale.md).
  await cdp.detach();
  return {
    name: 'JS heap after sign-in and a tour of every screen',
    unit: 'MB',
    samples: [mb],
    bar: BARS.heap,
    note: `MB used after a forced garbage collection (CDP Runtime.getHeapUsage): Dashboard, Links, the ${fmt(BIG)}-link directory scrolled to its end, Calendar, Voting, Profile, in one document; the palette not opened`,
  };
}

export async function scale(
  stack: RunningStack,
  context: () => Promise<BrowserContext>,
  plan: Plan,
): Promise<Measure[]> {
  const account = await signUp(stack, 'scale', 'pro');
  const seedStart = performance.now();
  const library = await seedLibrary(stack, account, {
    name: `Scale ${fmt(BIG)}`,
    directories: SCROLL_ONLY ? 1 : DIRECTORIES,
    big: BIG,
    each: EACH,
  });
  const calendar = SCROLL_ONLY
    ? { events: 0, tasks: 0, pending: 0, completed: 0 }
    : await seedCalendar(stack, account, EVENTS, TASKS, SERIES);
  const rows = library.links + library.others.length + 1 + calendar.events + calendar.tasks;
  plan.log(`scale: seeded ${fmt(rows)} rows in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const expected = { saved_links: library.links, calendar_events: calendar.events + calendar.tasks };
  const measures: Measure[] = [];
  const browser = await context();

  const signedIn = await signInMeasured(browser, account, expected, rows);
  const page = signedIn.page;
  measures.push(...signedIn.measures);
  plan.log(
    `scale: first screen ${signedIn.measures[0]!.samples[0]!.toFixed(0)} ms, synced in ${(signedIn.measures[1]!.samples[0]! / 1000).toFixed(1)} s, words indexed in ${(signedIn.measures[2]!.samples[0]! / 1000).toFixed(1)} s`,
  );

  await navigate(page, `/Links/${account.username}/dir/${library.big}`);
  await page.locator('[data-testid="link-card"]').first().waitFor({ timeout: 60_000 });
  measures.push(...(await farScroll(page, plan)));
  plan.log('scale: far scroll done');

  // ── search part: typing in the big directory's search, and the palette over every link,
  //    go here (the page is on the big directory, scrolled to the top).
  // Search at this size has the bar of every keystroke (docs/scale.md), not the 10,000-link part's.
  measures.push({ ...(await search(page, BIG, plan)), bar: BARS.search });
  if (SCROLL_ONLY) {
    await browser.close();
    return measures;
  }

  // ── writes part: queueing and pushing writes at this size go here (the page is on the big directory).
  measures.push(...(await mutationToUi(page, fmt(BIG), plan)));
  measures.push(...(await noopSync(page, plan)));
  // Queued into a 400-link directory on screen, pushed over others; back on the big directory after.
  const bigPath = `/Links/${account.username}/dir/${library.big}`;
  measures.push(...(await writesAtScale(browser, page, account, library.others, bigPath, plan)));
  plan.log('scale: writes done');

  // ── boot part: the offline warm start at this size goes here (the page is on the big directory).
  measures.push({
    name: `offline warm start → links painted, ${fmt(BIG)}-link directory of ${fmt(library.links)}`,
    unit: 'ms',
    samples: await warmStartSamples(browser, page, { check: 'anyItem' }, plan),
    bar: { median: 400 },
  });

  await openCalendar(page, account);
  await waitSynced(page, expected);
  measures.push(...(await calendarScreens(page, account, calendar, plan)));
  plan.log('scale: calendar done');

  measures.push(await heapAfterTour(page, account, library.big));
  await browser.close();

  // Bad input at this size: a push over the server's limit, pulls with cursors it cannot use.
  measures.push(...(await badInputAtScale(stack, account, library.big, plan.log)));
  return measures;
}
