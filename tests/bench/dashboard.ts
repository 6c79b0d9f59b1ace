/**
 * The dashboard's measures: the dashboard's offline warm start over 1,000
 * links, 500 events (and 100 tasks) and 100 polls created this month, and a vote on the Public
 * Voting Board until the card shows its results.
 */
import type { BrowserContext, Locator, Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { HAND_CLICK, probeResult, probeStart, signIn } from './browser.ts';
import { settled } from './calendar.ts';
import { painted, type Plan } from './measures.ts';
import { warmStartSamples } from './warm-start.ts';
import {
  seedCalendar,
  seedDirectory,
  seededPollTitle,
  seedPolls,
  signUp,
  type Account,
  type CalendarSeed,
} from './setup.ts';
import type { Measure } from './stats.ts';

const LINKS = 1000;
const DIRECTORIES = 4;
const EVENTS = 500;
const TASKS = 100;
const POLLS = 100;
/** The other user's polls the voter votes on: one per sample and warm-up, at least 30. */
const OTHERS_PREFIX = 'Open poll';

/** What the dashboard account holds, and what its stats grid must show. */
export interface DashboardSeed {
  account: Account;
  calendar: CalendarSeed;
  links: number;
  polls: number;
  /** The other user's open polls, titled seededPollTitle(OTHERS_PREFIX, i), i = 1..othersPolls. */
  othersPolls: number;
}

/**
 * A Pro account (no ad slot and no upgrade banner on its dashboard) with LINKS links in DIRECTORIES
 * directories, EVENTS events and TASKS tasks (seedCalendar) and POLLS polls of its own this month;
 * and another Pro user's `votable` open public polls, which the first account's sync brings too.
 * Every bulk write is one statement; the returned page is signed in, synced, on the dashboard.
 */
export async function seedDashboard(
  stack: RunningStack,
  context: BrowserContext,
  votable: number,
): Promise<{ page: Page; seed: DashboardSeed }> {
  const account = await signUp(stack, 'dash', 'pro');
  const other = await signUp(stack, 'pollster', 'pro');
  for (let i = 0; i < DIRECTORIES; i += 1) {
    await seedDirectory(stack, account, `Dashboard ${i + 1}`, LINKS / DIRECTORIES);
  }
  const calendar = await seedCalendar(stack, account, EVENTS, TASKS);
  await seedPolls(stack, account, 'Poll', POLLS);
  const othersPolls = Math.max(30, votable);
  await seedPolls(stack, other, OTHERS_PREFIX, othersPolls);
  const page = await signIn(context, account, {
    saved_links: LINKS,
    calendar_events: calendar.events + calendar.tasks,
    voting_posts: POLLS + othersPolls,
  });
  return { page, seed: { account, calendar, links: LINKS, polls: POLLS, othersPolls } };
}

/** The dashboard with its stats and Today's Focus shown (not the skeleton). */
export async function openDashboard(page: Page, account: Account): Promise<void> {
  await page.goto(`/Dashboard/${account.username}`);
  await page.getByRole('heading', { name: "Today's Focus" }).waitFor({ timeout: 60_000 });
}

/** Reload the dashboard offline; navigation start to the paint of its first content. */
export async function dashboardWarmStart(
  context: BrowserContext,
  page: Page,
  seed: DashboardSeed,
  plan: Plan,
): Promise<Measure> {
  const stats = {
    'Saved Links': seed.links,
    'Calendar Events': seed.calendar.events,
    'Tasks Done': seed.calendar.completed,
    'Polls This Month': seed.polls,
  };
  // The sign-up's full name is 'Bench dash': the greeting takes its first word.
  const first = { check: 'dashboard', args: ['Welcome back, Bench!', stats] };
  return {
    name: `dashboard → first content painted, offline warm start (${seed.links.toLocaleString('en')} links, ${seed.calendar.events} events, ${seed.polls} polls)`,
    unit: 'ms',
    samples: await warmStartSamples(context, page, first, plan),
    bar: { median: 400 },
    note: `a Pro account (no ad or upgrade banner) with the links in ${DIRECTORIES} directories, also ${seed.calendar.tasks} tasks, and ${seed.othersPolls} public polls of another user; context offline, /Dashboard/{username} opened in a new tab with the service worker stopped (warm-start.ts, warmStartRuns); navigation start to the frame presented showing 'Welcome back, Bench!', the stats (Saved Links ${stats['Saved Links']}, Calendar Events ${stats['Calendar Events']}, Tasks Done ${stats['Tasks Done']}, Polls This Month ${stats['Polls This Month']}) and Today's Focus with its items`,
  };
}

const cardOf = (page: Page, title: string): Locator =>
  page.locator('article', { has: page.getByRole('heading', { name: title, exact: true }) });

/** One vote: the click on the card's Yes until the card shows its results, then synced (untimed). */
async function voteOnce(page: Page, title: string): Promise<{ ms: number; kept: boolean }> {
  const card = cardOf(page, title);
  const yes = card.getByRole('button', { name: 'Yes', exact: true });
  await yes.scrollIntoViewIfNeeded();
  await probeStart(page, 'vote', { event: 'click', check: 'voted', args: [title] });
  await yes.click(HAND_CLICK);
  const ms = painted(await probeResult(page, 'vote'), `vote on ${title}`);
  await settled(page);
  // The server's answer has come back: a refused vote would have been rolled back by now.
  const kept = (await card.locator('li[aria-current="true"]').count()) === 1;
  return { ms, kept };
}

/**
 * On /Voting/{username}, where the other user's open polls are synced and listed: per sample, the
 * click on Yes of a poll the user has not voted on (scrolled into view first, untimed) until its
 * card shows the results (the user's choice marked 'Your vote', 100.0%). Each vote is synced
 * before the next sample.
 */
export async function voteToUi(page: Page, seed: DashboardSeed, plan: Plan): Promise<Measure> {
  const rounds = plan.warmups + plan.samples;
  if (rounds > seed.othersPolls) throw new Error(`vote: ${rounds} votes asked, ${seed.othersPolls} polls seeded`);
  await page.goto(`/Voting/${seed.account.username}`);
  await cardOf(page, seededPollTitle(OTHERS_PREFIX, rounds)).waitFor({ timeout: 60_000 });
  await settled(page);
  const samples: number[] = [];
  const lost: string[] = [];
  for (let i = 1; i <= rounds; i += 1) {
    const title = seededPollTitle(OTHERS_PREFIX, i);
    const { ms, kept } = await voteOnce(page, title);
    if (!kept) lost.push(title);
    if (i > plan.warmups) samples.push(ms);
  }
  return {
    name: 'vote → results shown (UI painted)',
    unit: 'ms',
    samples,
    bar: { median: 16 },
    note: `Public Voting Board with ${seed.polls + seed.othersPolls} public polls; the click on Yes of an open poll of another user not voted on until its card shows 'Your vote' and 100.0% (poll.vote through mutate); each vote synced before the next`,
    ...(lost.length ? { failed: `the vote was gone after the sync on ${lost.join(', ')}` } : {}),
  };
}
