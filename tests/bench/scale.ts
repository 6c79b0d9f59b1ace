/**
 * Beyond the bars (docs/scale.md): one Pro account with 50,000 links in one
 * directory and 5,000 events plus 500 tasks. Run on its own (`BENCH_ONLY=scale npm run bench`):
 * the first sync alone takes minutes on a 2-core machine. No bars: the figures say where the
 * next limit is.
 */
import type { BrowserContext } from 'playwright';
import { openCalendar } from './calendar.ts';
import { openDirectory, probeResult, probeStart, run, signIn, waitSynced } from './browser.ts';
import { mutationToUi, noopSync, painted, search, warmStartSamples, type Plan } from './measures.ts';
import { seedCalendar, seedDirectory, seededTitle, signUp } from './setup.ts';
import type { RunningStack } from '../../supabase/local/server.ts';
import type { Measure } from './stats.ts';

const LINKS = 50_000;
const EVENTS = 5_000;
const TASKS = 500;
/** The grid's row height and columns at the bench's desktop width (link-collection.tsx). */
const CARD_ROW_HEIGHT = 196;
const COLUMNS = 3;

export async function scale(
  stack: RunningStack,
  context: () => Promise<BrowserContext>,
  plan: Plan,
): Promise<Measure[]> {
  const account = await signUp(stack, 'scale', 'pro');
  const directory = await seedDirectory(stack, account, 'Scale 50000', LINKS);
  const calendar = await seedCalendar(stack, account, EVENTS, TASKS);
  const measures: Measure[] = [];
  const browser = await context();

  const signInStart = performance.now();
  const page = await signIn(browser, account, { saved_links: LINKS, calendar_events: EVENTS + TASKS });
  const firstSync = performance.now() - signInStart;
  plan.log(`scale: signed in and synced ${LINKS + EVENTS + TASKS} rows in ${(firstSync / 1000).toFixed(1)} s`);
  measures.push({
    name: `sign-in → first sync done, ${(LINKS + EVENTS + TASKS).toLocaleString('en')} rows`,
    unit: 'ms',
    samples: [firstSync],
    note: 'Login page submit to the status Synced with every row local (one sample)',
  });

  await openDirectory(page, account, directory);
  // Scrolling the grid to a far link: from the scroll event to that link's card painted. The
  // first jump is made as the directory first shows, before its anchors (link-anchors.ts) are
  // taken; the others after the list has been open for 2 s, as a user reads its first screen.
  const scrollTo = async (index: number): Promise<number> => {
    const title = seededTitle(index + 1);
    await probeStart(page, 'scroll', { event: 'scroll', check: 'hasTitle', args: [title], timeoutMs: 30_000 });
    await run(
      page,
      `document.querySelector('[role="region"][aria-label="Links grid"]').scrollTop = ${Math.floor(index / COLUMNS) * CARD_ROW_HEIGHT}`,
    );
    return painted(await probeResult(page, 'scroll'), `scroll to ${title}`);
  };
  measures.push({
    name: `first scroll to a far link → painted, ${LINKS.toLocaleString('en')} links`,
    unit: 'ms',
    samples: [await scrollTo(25_000)],
    note: 'the grid scrolled to link 25,000 as the directory first shows on this device (one sample)',
  });
  await page.waitForTimeout(2_000);
  const scroll: number[] = [];
  for (const index of [1_000, 10_000, 40_000, 49_990, 30_000]) scroll.push(await scrollTo(index));
  measures.push({
    name: `scroll to a far link → painted, ${LINKS.toLocaleString('en')} links`,
    unit: 'ms',
    samples: scroll,
    note: 'the grid scrolled to links 1,000, 10,000, 40,000, 49,990 and 30,000, 2 s after the directory showed',
  });
  await run(page, `document.querySelector('[role="region"][aria-label="Links grid"]').scrollTop = 0`);

  measures.push(await search(page, LINKS, plan));
  measures.push(...(await mutationToUi(page, LINKS.toLocaleString('en'), plan)));
  measures.push(...(await noopSync(page, plan)));
  measures.push({
    name: `offline warm start → links painted, ${LINKS.toLocaleString('en')} links`,
    unit: 'ms',
    samples: await warmStartSamples(browser, page, { check: 'anyItem' }, plan),
  });

  await openCalendar(page, account);
  await waitSynced(page, { calendar_events: EVENTS + TASKS });
  measures.push({
    name: `calendar screen → first content painted, offline warm start (${EVENTS.toLocaleString('en')} events, ${TASKS} tasks)`,
    unit: 'ms',
    samples: await warmStartSamples(
      browser,
      page,
      { check: 'calendar', args: [calendar.pending, calendar.completed] },
      plan,
    ),
  });
  await browser.close();
  return measures;
}
