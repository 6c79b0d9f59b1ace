/**
 * The calendar's measures: the calendar screen's offline warm start over 500
 * events and 200 tasks, and a 365-occurrence series saved through the Add Event dialog.
 */
import type { BrowserContext, Locator, Page } from 'playwright';
import { Temporal } from 'temporal-polyfill';
import type { WriteLog } from '../../src/perf/bench-hook.ts';
import { HAND_CLICK, hook, probeResult, probeStart, run, waitFor, waitSynced } from './browser.ts';
import { painted, type Plan } from './measures.ts';
import { warmStartSamples } from './warm-start.ts';
import type { Account, CalendarSeed } from './setup.ts';
import type { Measure } from './stats.ts';

const OCCURRENCES = 365;
const GRID = 'section[aria-labelledby="calendar-grid-heading"]';

/** The calendar screen with its counters and Today's Tasks shown. */
export async function openCalendar(page: Page, account: Account): Promise<void> {
  await page.goto(`/Calendar/${account.username}`);
  await page.getByRole('heading', { name: 'My Calendar & Tasks' }).waitFor({ timeout: 60_000 });
  await page.locator('#today-tasks').waitFor({ timeout: 60_000 });
}

/** Reload the calendar screen offline; navigation start to the paint of its first content. */
export async function calendarWarmStart(
  context: BrowserContext,
  page: Page,
  seed: CalendarSeed,
  plan: Plan,
): Promise<Measure> {
  const first = { check: 'calendar', args: [seed.pending, seed.completed] };
  return {
    name: `calendar screen → first content painted, offline warm start (${seed.events} events, ${seed.tasks} tasks)`,
    unit: 'ms',
    samples: await warmStartSamples(context, page, first, plan),
    bar: { median: 400 },
    note: `context offline, /Calendar/{username} opened in a new tab with the service worker stopped (warm-start.ts, warmStartRuns); navigation start to the frame presented showing the heading, the counters (Pending Tasks ${seed.pending}, Completed ${seed.completed}) and Today's Tasks with its tasks`,
  };
}

/** The dialog's fields for a daily series from tomorrow 09:00 (the user's zone) with OCCURRENCES days. */
interface SeriesDates {
  day: string;
  until: string;
}

async function addDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Add Event or Task', exact: true }).click();
  return page.getByRole('dialog', { name: 'Add Event or Task' });
}

/** Tomorrow in the zone the dialog names, and the last day of a daily series of OCCURRENCES from it. */
async function seriesDates(page: Page): Promise<SeriesDates> {
  const dialog = await addDialog(page);
  const text = await dialog.getByText('Times are in your time zone').textContent();
  const zone = /time zone \(([^)]+)\)/.exec(text ?? '')?.[1];
  if (!zone) throw new Error(`series: no time zone in '${text}'`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const tomorrow = Temporal.Now.plainDateISO(zone).add({ days: 1 });
  return { day: tomorrow.toString(), until: tomorrow.add({ days: OCCURRENCES - 1 }).toString() };
}

/** Selects tomorrow on the grid (the next month first when it is not shown): its agenda lists its items. */
async function selectDay(page: Page, day: string): Promise<void> {
  const cell = page.locator(`${GRID} [data-day="${day}"]`);
  if ((await cell.count()) === 0) await page.getByRole('button', { name: 'Next month' }).click();
  await cell.click();
  await page.locator(`${GRID} [data-day="${day}"][tabindex="0"]`).waitFor();
}

/** One series through the dialog: from the click on Add Event to its first occurrence painted in tomorrow's agenda. */
async function saveSeries(page: Page, title: string, dates: SeriesDates): Promise<number> {
  const dialog = await addDialog(page);
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Start date', { exact: true }).fill(dates.day);
  await dialog.getByLabel('Start time', { exact: true }).fill('09:00');
  await dialog.getByLabel('Rule').selectOption({ label: 'Daily' });
  await dialog.getByLabel('Repeat until').fill(dates.until);
  await probeStart(page, 'series', { event: 'click', check: 'agendaTitle', args: [title] });
  await dialog.getByRole('button', { name: 'Add Event', exact: true }).click(HAND_CLICK);
  const ms = painted(await probeResult(page, 'series'), `series ${title}`);
  await dialog.waitFor({ state: 'hidden' });
  return ms;
}

/** series.delete through the app's mutate; answers how many occurrences the series had. */
async function removeSeries(page: Page, title: string): Promise<number> {
  const occurrences = await run<number>(page, hook(`deleteSeries(${JSON.stringify(title)})`));
  await page.locator(`${GRID} li`).getByRole('button', { name: title, exact: true }).waitFor({ state: 'detached' });
  return occurrences;
}

/** Synced, with nothing left in the outbox: the next sample starts as this one did. */
export async function settled(page: Page): Promise<void> {
  await waitFor(page, `${hook('counts()')}.then((counts) => counts.outbox === 0)`);
  await waitSynced(page, {});
}

/** One save, offline (no pull can write meanwhile), with the rows each IndexedDB transaction wrote counted. */
async function transactionCheck(
  context: BrowserContext,
  page: Page,
  title: string,
  dates: SeriesDates,
): Promise<{ text: string; failed?: string }> {
  let log: WriteLog;
  await context.setOffline(true);
  try {
    await run(page, hook('watchWrites()'));
    try {
      await saveSeries(page, title, dates);
    } finally {
      log = await run<WriteLog>(page, hook('stopWatchingWrites()'));
    }
    await removeSeries(page, title);
  } finally {
    await context.setOffline(false);
  }
  await settled(page);
  const wrote = log.transactions.filter((transaction) => (transaction.writes.calendar_events ?? 0) > 0);
  const rows = wrote.map((transaction) =>
    Object.entries(transaction.writes)
      .map(([store, count]) => `${count} ${store}`)
      .join(' + '),
  );
  const text = `${wrote.length} IndexedDB transaction(s) wrote calendar_events during the save (${rows.join('; ') || 'none'}), of ${log.transactions.length} that wrote anything`;
  const one = wrote.length === 1 ? wrote[0]! : undefined;
  const ok = one?.mode === 'readwrite' && one.writes.calendar_events === OCCURRENCES && one.writes.outbox === 1;
  return ok
    ? { text }
    : { text, failed: `expected one transaction writing ${OCCURRENCES} calendar_events and 1 outbox row` };
}

/**
 * A daily series of OCCURRENCES from tomorrow, through the dialog (planSave expands it, series.create
 * writes it): from the click on Add Event to its first occurrence painted in tomorrow's agenda
 * under the month grid. Each sample's series is deleted (series.delete) and synced away before the
 * next. Once first, untimed and offline: the save must write its rows in one IndexedDB transaction.
 */
export async function seriesToUi(context: BrowserContext, page: Page, plan: Plan): Promise<Measure> {
  const dates = await seriesDates(page);
  await selectDay(page, dates.day);
  const tag = Date.now().toString(36);
  const check = await transactionCheck(context, page, `Series ${tag} check`, dates);
  plan.log(`series save: ${check.text}`);
  const samples: number[] = [];
  const sizes = new Set<number>();
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    const title = `Series ${tag} ${i}`;
    const ms = await saveSeries(page, title, dates);
    sizes.add(await removeSeries(page, title));
    await settled(page);
    if (i >= plan.warmups) samples.push(ms);
  }
  const wrongSize = [...sizes].filter((size) => size !== OCCURRENCES);
  const failed = [
    check.failed,
    wrongSize.length ? `a save wrote ${wrongSize.join(', ')} occurrences, not ${OCCURRENCES}` : undefined,
  ].filter(Boolean);
  return {
    name: `expand + save a ${OCCURRENCES}-occurrence series → UI painted`,
    unit: 'ms',
    samples,
    bar: { median: 100 },
    note: `Add Event or Task, daily from tomorrow 09:00 until ${OCCURRENCES - 1} days later, the click on Add Event to its first occurrence painted in the grid's agenda (planSave's expandSeries, then series.create); ${check.text}`,
    ...(failed.length ? { failed: failed.join('; ') } : {}),
  };
}
