/**
 * The offline warm start at the scale of docs/scale.md (docs/bench.md, offline warm start): one Pro
 * account with 100,000 links in 200 directories, 10,000 events and 1,000 tasks, and the warm start of
 * a directory of it, of the calendar and of the dashboard (bar: median 400 ms each).
 *
 * For tests/bench/scale.ts: `bootMeasures(context, page, account, seed, plan)` on its own account once
 * synced (the page signed in; it is left online on the dashboard), or `bootScale(stack, context, plan)`
 * to seed and sign in an account of its own. BENCH_ONLY=boot-scale runs the latter; BENCH_ONLY=boot
 * the same measures at 1,000 links (`bootBars`).
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { openCalendar } from './calendar.ts';
import { openDirectory, signIn, waitFor, waitSynced } from './browser.ts';
import type { Plan } from './measures.ts';
import { warmStartNote, warmStartRuns, type FirstContent, type WarmStartSample } from './warm-start.ts';
import { seedCalendar, signUp, type Account, type CalendarSeed } from './setup.ts';
import type { Measure } from './stats.ts';

const BAR = { median: 400 };

/** What an account holds for the boot measures. */
export interface BootSeed {
  links: number;
  directories: number;
  /** A directory with at least a screen of links: the one whose warm start is measured. */
  directoryId: string;
  calendar: CalendarSeed;
  /** Open polls the account created this month (the dashboard's Polls This Month). */
  polls: number;
}

/**
 * `directories` directories of `links / directories` links each (titles 'Link number {i}' per
 * directory, i = 1 the newest, one second apart), in two statements. Answers the directories' ids.
 */
export async function seedDirectories(
  stack: RunningStack,
  owner: Account,
  directories: number,
  links: number,
): Promise<string[]> {
  const ids = Array.from({ length: directories }, () => randomUUID());
  await stack.db.query(
    `insert into public.link_directories (id, name, description, is_public, owner_id)
     select id, 'Directory ' || n, 'Seeded by the bench', false, $2::uuid
     from unnest($1::uuid[]) with ordinality as d(id, n)`,
    [ids, owner.id],
  );
  const each = Math.floor(links / directories);
  await stack.db.query(
    `insert into public.saved_links (id, directory_id, url, title, notes, tags, owner_id, created_by, created_at, updated_at)
     select gen_random_uuid(), d.id, 'https://example.com/' || d.n || '/page/' || i, 'Link number ' || i,
            case when i % 3 = 0 then 'note ' || i end,
            array['tag' || (i % 17), 'topic' || (i % 5)], $2, $2,
            now() - (i * $4::int + d.n) * interval '1 second', now() - (i * $4::int + d.n) * interval '1 second'
     from unnest($1::uuid[]) with ordinality as d(id, n), generate_series(1, $3::int) i`,
    [ids, owner.id, each, directories],
  );
  return ids;
}

function measure(name: string, samples: WarmStartSample[], note: string): Measure {
  return {
    name,
    unit: 'ms',
    samples: samples.map((sample) => sample.presented ?? sample.painted),
    bar: BAR,
    note: `${note}; ${warmStartNote(samples)}`,
  };
}

/**
 * The three warm starts of a signed-in, synced account: one of its directories, the calendar and
 * the dashboard, each offline from a new tab (warmStartRuns). `label` names the scale in the measures.
 */
export async function bootMeasures(
  context: BrowserContext,
  page: Page,
  account: Account,
  seed: BootSeed,
  plan: Plan,
  label = `${seed.links.toLocaleString('en')} links`,
): Promise<Measure[]> {
  const measures: Measure[] = [];
  await openDirectory(page, account, seed.directoryId);
  const links: FirstContent = { check: 'anyItem' };
  measures.push(
    measure(
      `offline warm start → a directory's links painted, ${label}`,
      await warmStartRuns(context, page, links, plan),
      `a directory of ${Math.floor(seed.links / seed.directories).toLocaleString('en')} links of ${seed.directories}`,
    ),
  );
  await openCalendar(page, account);
  const calendar: FirstContent = { check: 'calendar', args: [seed.calendar.pending, seed.calendar.completed] };
  measures.push(
    measure(
      `offline warm start → calendar painted, ${label}`,
      await warmStartRuns(context, page, calendar, plan),
      `${seed.calendar.events.toLocaleString('en')} events, ${seed.calendar.tasks.toLocaleString('en')} tasks; the heading, counters and Today's Tasks`,
    ),
  );
  await page.goto(`/Dashboard/${account.username}`);
  await page.getByRole('heading', { name: "Today's Focus" }).waitFor({ timeout: 60_000 });
  const stats = {
    'Saved Links': seed.links,
    'Calendar Events': seed.calendar.events,
    'Tasks Done': seed.calendar.completed,
    'Polls This Month': seed.polls,
  };
  const dashboard: FirstContent = { check: 'dashboard', args: ['Welcome back, Bench!', stats] };
  measures.push(
    measure(
      `offline warm start → dashboard painted, ${label}`,
      await warmStartRuns(context, page, dashboard, plan),
      "the greeting, the stats and Today's Focus",
    ),
  );
  return measures;
}

/** Seeds an account of `links` links in `directories` directories and a calendar, signs it in and syncs it. */
export async function seedBootAccount(
  stack: RunningStack,
  context: BrowserContext,
  shape: { links: number; directories: number; events: number; tasks: number },
  log: (message: string) => void,
): Promise<{ page: Page; account: Account; seed: BootSeed }> {
  // The sign-up's full name is 'Bench boot': the dashboard greets 'Bench'.
  const account = await signUp(stack, 'boot', 'pro');
  const ids = await seedDirectories(stack, account, shape.directories, shape.links);
  const calendar = await seedCalendar(stack, account, shape.events, shape.tasks);
  const started = performance.now();
  const page = await signIn(context, account, {
    saved_links: shape.links,
    calendar_events: shape.events + shape.tasks,
  });
  log(
    `boot: ${shape.links} links, ${shape.events + shape.tasks} events synced in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await waitFor(page, 'navigator.serviceWorker.controller !== null');
  await waitSynced(page, shape.links);
  return {
    page,
    account,
    seed: { links: shape.links, directories: shape.directories, directoryId: ids[0]!, calendar, polls: 0 },
  };
}

/** 100,000 links in 200 directories, 10,000 events and 1,000 tasks: the three warm starts. */
export async function bootScale(
  stack: RunningStack,
  context: () => Promise<BrowserContext>,
  plan: Plan,
): Promise<Measure[]> {
  const browser = await context();
  const shape = { links: 100_000, directories: 200, events: 10_000, tasks: 1_000 };
  const { page, account, seed } = await seedBootAccount(stack, browser, shape, plan.log);
  const measures = await bootMeasures(browser, page, account, seed, plan);
  await browser.close();
  return measures;
}

/** The same three warm starts at 1,000 links in 4 directories, 500 events and 200 tasks. */
export async function bootBars(
  stack: RunningStack,
  context: () => Promise<BrowserContext>,
  plan: Plan,
): Promise<Measure[]> {
  const browser = await context();
  const shape = { links: 1_000, directories: 1, events: 500, tasks: 200 };
  const { page, account, seed } = await seedBootAccount(stack, browser, shape, plan.log);
  const measures = await bootMeasures(browser, page, account, seed, plan);
  await browser.close();
  return measures;
}
