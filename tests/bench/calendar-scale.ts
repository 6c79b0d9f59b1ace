/**
 * The calendar's measures at the scale of docs/scale.md: Calendar and Upcoming opened from the
 * sidebar, and the month view moved a month on and back, over 10,000 events (1,000 of them the
 * occurrences of weekly series) and 1,000 tasks (bar: median 100 ms each).
 *
 * `calendarScreens` is called by tests/bench/scale.ts on its signed-in page. `calendarScale` seeds
 * an account with only the calendar's rows and measures the same (BENCH_ONLY=calendar-scale: a few
 * minutes where the whole scale part takes far longer), plus the calendar's offline warm start at
 * this size. BENCH_PROFILE=1 writes Chrome's CPU profile of the first timed Calendar click to
 * bench/calendar-scale.cpuprofile (build with BENCH_NOMINIFY=1 for readable names), BENCH_PROFILE=trace
 * its trace.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { HAND_CLICK, probeResult, probeStart, run, signIn, waitSynced } from './browser.ts';
import { openCalendar } from './calendar.ts';
import { painted, type Plan } from './measures.ts';
import { seedCalendar, signUp, type Account, type CalendarSeed } from './setup.ts';
import type { Measure } from './stats.ts';
import { warmStartSamples } from './warm-start.ts';

export const EVENTS = 10_000;
export const SERIES = { count: 40, occurrences: 25 };
export const TASKS = 1_000;
const BAR = { median: 100 };

const fmt = (n: number) => n.toLocaleString('en');

const sidebarLink = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });

/** A click on a sidebar entry until the screen's content (a probe check) is painted. */
async function clickToContent(page: Page, label: string, check: string, args: unknown[]): Promise<number> {
  await probeStart(page, 'nav', { event: 'click', check, args, timeoutMs: 30_000 });
  await sidebarLink(page, label).click(HAND_CLICK);
  return painted(await probeResult(page, 'nav'), `${label} → content`);
}

/** The month after (or before) the one shown: its 'YYYY-MM'. */
function monthOf(day: string, shift: number): string {
  const date = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + shift);
  return date.toISOString().slice(0, 7);
}

/**
 * Chrome's CPU profile (BENCH_PROFILE=1) or trace (BENCH_PROFILE=trace: the main thread's tasks,
 * style, layout, paint and IndexedDB) from now until the returned function writes it to
 * bench/<name>.cpuprofile or bench/<name>.trace.json.
 */
export async function startProfile(page: Page): Promise<(name: string) => Promise<void>> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync('bench', { recursive: true });
  if (process.env.BENCH_PROFILE === 'trace') {
    const events: unknown[] = [];
    cdp.on('Tracing.dataCollected', (event: { value: unknown[] }) => events.push(...event.value));
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'v8', 'IndexedDB'];
    await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: categories } });
    return async (name) => {
      await cdp.send('Tracing.end');
      await done;
      writeFileSync(`bench/${name}.trace.json`, JSON.stringify({ traceEvents: events }));
      await cdp.detach();
    };
  }
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async (name) => {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(`bench/${name}.cpuprofile`, JSON.stringify(profile));
    await cdp.detach();
  };
}

/** Calendar and Upcoming, each opened from the sidebar, and the month view moved a month on and back. */
export async function calendarScreens(
  page: Page,
  account: Account,
  counts: { pending: number; completed: number },
  plan: Plan,
): Promise<Measure[]> {
  const calendar: number[] = [];
  const upcoming: number[] = [];
  const month: number[] = [];
  // An in-app navigation (react-router listens to popstate): the document, and its heap, stay.
  const dashboard = JSON.stringify(`/Dashboard/${account.username}`);
  await run(page, `history.pushState(null, '', ${dashboard}); dispatchEvent(new PopStateEvent('popstate'))`);
  await page.getByRole('heading', { name: "Today's Focus" }).waitFor({ timeout: 60_000 });
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    const profile = process.env.BENCH_PROFILE && i === plan.warmups ? await startProfile(page) : null;
    const c = await clickToContent(page, 'Calendar', 'calendar', [counts.pending, counts.completed]);
    await profile?.('calendar-scale');
    const today = await page
      .locator('section[aria-labelledby="calendar-grid-heading"] [data-day][tabindex="0"]')
      .getAttribute('data-day');
    if (!today) throw new Error('scale: no day selected on the calendar grid');
    const shifts: number[] = [];
    for (const [label, shift] of [
      ['Next month', 1],
      ['Previous month', 0],
    ] as const) {
      await probeStart(page, 'month', { event: 'click', check: 'monthShown', args: [monthOf(today, shift)] });
      await page.getByRole('button', { name: label }).click(HAND_CLICK);
      shifts.push(painted(await probeResult(page, 'month'), `${label} → grid`));
    }
    const u = await clickToContent(page, 'Upcoming', 'upcoming', []);
    await sidebarLink(page, 'Dashboard').click();
    await page.getByRole('heading', { name: "Today's Focus" }).waitFor();
    if (i >= plan.warmups) {
      calendar.push(c);
      upcoming.push(u);
      month.push(...shifts);
    }
  }
  const size = `${fmt(EVENTS)} events, ${fmt(TASKS)} tasks`;
  return [
    {
      name: `Calendar from the sidebar → content painted (${size})`,
      unit: 'ms',
      samples: calendar,
      bar: BAR,
      note: "the click on Calendar from the dashboard until its heading, counters and Today's Tasks are painted",
    },
    {
      name: `month view: next / previous month → grid painted (${size})`,
      unit: 'ms',
      samples: month,
      bar: BAR,
      note: "the click on › or ‹ until the grid shows that month's days with their items",
    },
    {
      name: `Upcoming from the sidebar → content painted (${size})`,
      unit: 'ms',
      samples: upcoming,
      bar: BAR,
      note: 'the click on Upcoming from the calendar until Future Events and Pending Tasks list their items',
    },
  ];
}

/** An account of only the calendar's rows at this scale: the screens above, then the calendar's offline warm start. */
export async function calendarScale(
  stack: RunningStack,
  context: () => Promise<BrowserContext>,
  plan: Plan,
): Promise<Measure[]> {
  const account = await signUp(stack, 'calscale', 'pro');
  const seed: CalendarSeed = await seedCalendar(stack, account, EVENTS, TASKS, SERIES);
  const expected = { calendar_events: seed.events + seed.tasks };
  const browser = await context();
  const page = await signIn(browser, account, expected);
  await openCalendar(page, account);
  await waitSynced(page, expected);
  const measures = await calendarScreens(page, account, seed, plan);
  await openCalendar(page, account);
  const first = { check: 'calendar', args: [seed.pending, seed.completed] };
  measures.push({
    name: `calendar screen → first content painted, offline warm start (${size(seed)})`,
    unit: 'ms',
    samples: await warmStartSamples(browser, page, first, plan),
    bar: { median: 400 },
    note: 'context offline, /Calendar/{username} opened in a new tab with the service worker stopped (warm-start.ts)',
  });
  await browser.close();
  return measures;
}

const size = (seed: CalendarSeed) => `${fmt(seed.events)} events, ${fmt(seed.tasks)} tasks`;
