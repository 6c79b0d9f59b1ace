/**
 * Search at scale (docs/bench.md, search-scale; docs/scale.md): an account of 100,000 links with
 * words (search-words.ts) in 200 directories, one of them 20,000 links. Typing real words letter
 * by letter, then erasing them, in the command palette (over every link) and in the big
 * directory's search: each keystroke from keydown to the list painted with its new first link
 * (the probes of probe.ts). A keystroke whose first link would not change is typed untimed.
 *
 * `BENCH_ONLY=search-scale` runs it on its own account (BENCH_SEARCH_LINKS, 100,000 by default:
 * 1,000 gives the small figure). Another part with an account seeded by `seedWordLinks` and
 * signed in calls `searchScaleMeasures` (tests/bench/scale.ts).
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { linkWords, searchOrder, searchWords } from '../../src/domain/search-words.ts';
import type { LinkRow } from '../../src/data/rows.ts';
import { openDirectory, probeResult, probeStart, waitFor, waitSynced } from './browser.ts';
import { painted, type Plan } from './measures.ts';
import { signUp, type Account } from './setup.ts';
import { wordLink, wordLinkRow } from './search-words.ts';
import type { Measure } from './stats.ts';

export const SEARCH_BAR = { median: 16, p95: 50 };

/** What seedWordLinks wrote: the directories (the big one first) and, per link number, its directory. */
export interface WordSeed {
  links: number;
  directories: string[];
  bigDirectory: string;
  /** Link number i (1 = the newest) as the app holds it, for the app's own rules in Node. */
  rows: LinkRow[];
}

/** Which directory link number `i` goes in: every fifth in the big one (index 0), the rest spread over the others. */
const directoryOf = (i: number, directories: number) =>
  directories === 1 || i % 5 === 0 ? 0 : 1 + (i % (directories - 1));

/**
 * `links` links with words in `directories` directories (a fifth of them in the first, 'Search
 * big'), one second apart (i = 1 the newest), written in statements of 10,000.
 */
export async function seedWordLinks(
  stack: RunningStack,
  owner: Account,
  links: number,
  directories: number,
): Promise<WordSeed> {
  const ids = Array.from({ length: directories }, () => randomUUID());
  await stack.db.query(
    `insert into public.link_directories (id, name, description, is_public, owner_id)
     select id, case when n = 1 then 'Search big' else 'Search ' || n end, 'Seeded by the bench', false, $2
     from unnest($1::uuid[]) with ordinality as d(id, n)`,
    [ids, owner.id],
  );
  const newest = Date.now();
  const rows: LinkRow[] = [];
  for (let from = 1; from <= links; from += 10_000) {
    const batch = Array.from({ length: Math.min(10_000, links - from + 1) }, (_, k) => from + k);
    const fields = batch.map((i) => ({ i, dir: ids[directoryOf(i, directories)]!, ...wordLink(i) }));
    for (const field of fields) rows.push(wordLinkRow(field.i, field.dir, newest));
    await stack.db.query(
      `insert into public.saved_links (id, directory_id, url, title, notes, tags, owner_id, created_by, created_at, updated_at)
       select gen_random_uuid(), dir, url, title, notes,
              case when tags = '' then array[]::text[] else string_to_array(tags, ',') end,
              $6, $6, now() - i * interval '1 second', now() - i * interval '1 second'
       from unnest($1::int[], $2::uuid[], $3::text[], $4::text[], $5::text[], $7::text[]) as l(i, dir, url, title, notes, tags)`,
      [
        fields.map((f) => f.i),
        fields.map((f) => f.dir),
        fields.map((f) => f.url),
        fields.map((f) => f.title),
        fields.map((f) => f.notes),
        owner.id,
        fields.map((f) => f.tags.join(',')),
      ],
    );
  }
  return { links, directories: ids, bigDirectory: ids[0]!, rows };
}

/** What is typed: real words letter by letter, then erased. */
const PHRASES = ['kubernetes', 'recipe garlic', 'tokyo', 'postgres migration', 'marathon', 'jazz album', 'creme'];

interface Stroke {
  key: string;
  query: string;
  /** The first link's title the list shows after it, or null for none. */
  first: string | null;
}

/** Each keystroke of PHRASES with the first link the app's rule (searchOrder) lists for it over `rows`. */
function strokes(rows: readonly LinkRow[], phrases: readonly string[]): Stroke[] {
  const words = rows.map((row) => linkWords(row));
  const firstFor = (query: string): string | null => {
    const wanted = searchWords(query);
    if (wanted.length === 0) return null;
    let best: { order: string; title: string } | null = null;
    rows.forEach((row, at) => {
      const order = searchOrder(words[at]!, row.created_at, wanted);
      if (order !== null && (best === null || order < best.order)) best = { order, title: row.title };
    });
    return (best as { title: string } | null)?.title ?? null;
  };
  const out: Stroke[] = [];
  const memo = new Map<string, string | null>();
  let query = '';
  for (const phrase of phrases) {
    for (const key of [...phrase.split(''), ...phrase.split('').map(() => 'Backspace')]) {
      query = key === 'Backspace' ? query.slice(0, -1) : query + key;
      if (!memo.has(query)) memo.set(query, firstFor(query));
      out.push({ key, query, first: memo.get(query)! });
    }
  }
  return out;
}

/**
 * Types `typed` into the focused field: a keystroke that changes the list's first link (and
 * leaves the field non-empty) is timed with `check`; one that does not is typed untimed, with a
 * pause for its read to end. `timeNone`: a keystroke that finds nothing is timed too (the list
 * says 'No matching links'; the palette's Links group just goes).
 */
async function typeTimed(
  page: Page,
  typed: readonly Stroke[],
  check: (stroke: Stroke) => { check: string; args: unknown[] },
  plan: Plan,
  what: string,
  timeNone: boolean,
): Promise<number[]> {
  const samples: number[] = [];
  let shown: string | null | undefined;
  let timed = 0;
  for (const stroke of typed) {
    if (stroke.query.trim() === '' || stroke.first === shown || (stroke.first === null && !timeNone)) {
      await page.keyboard.press(stroke.key);
      await page.waitForTimeout(150);
    } else {
      await probeStart(page, 'key', { event: 'keydown', ...check(stroke) });
      await page.keyboard.press(stroke.key);
      const ms = painted(await probeResult(page, 'key'), `${what} '${stroke.query}'`);
      timed += 1;
      if (timed > plan.warmups) samples.push(ms);
    }
    shown = stroke.query.trim() === '' ? undefined : stroke.first;
  }
  return samples;
}

/**
 * The palette and the big directory's search on a signed-in, synced page of the account `seed`
 * was written for: keystroke → list painted, median and p95 (bar median ≤ 16 ms, p95 ≤ 50 ms).
 */
export async function searchScaleMeasures(
  page: Page,
  account: Account,
  seed: WordSeed,
  plan: Plan,
): Promise<Measure[]> {
  const size = seed.links.toLocaleString('en');
  const bigRows = seed.rows.filter((row) => row.directory_id === seed.bigDirectory);
  const big = bigRows.length.toLocaleString('en');

  // The palette: its code loaded by a first Ctrl+K (untimed), then words typed with it open.
  await page.keyboard.press('Control+k');
  await waitFor(page, `document.querySelector('[role="dialog"] [cmdk-item]')`);
  const palette = await typeTimed(
    page,
    strokes(seed.rows, PHRASES),
    (stroke) => ({ check: 'paletteShows', args: ['Links', stroke.first] }),
    plan,
    'palette',
    false,
  );
  await page.keyboard.press('Escape');
  await waitFor(page, `!document.querySelector('[role="dialog"]')`);

  await openDirectory(page, account, seed.bigDirectory);
  const input = page.getByRole('searchbox', { name: 'Search' });
  await input.click();
  const directory = await typeTimed(
    page,
    strokes(bigRows, PHRASES),
    (stroke) => ({ check: 'firstTitle', args: [stroke.first] }),
    plan,
    'directory search',
    true,
  );
  await input.fill('');
  return [
    {
      name: `search-scale: palette keystroke → links painted (${size} links)`,
      unit: 'ms',
      samples: palette,
      bar: SEARCH_BAR,
      note: `words typed letter by letter and erased (${PHRASES.join(', ')}); keydown to the Links group's new first link painted, read through the token index`,
    },
    {
      name: `search-scale: directory search keystroke → list painted (${big} of ${size} links)`,
      unit: 'ms',
      samples: directory,
      bar: SEARCH_BAR,
      note: 'the same words in the big directory’s search; keydown to the list painted with its new first link',
    },
  ];
}

/** Signs in through the Login page and waits up to 20 minutes for the first sync (a shared machine's 100,000 links). */
async function signInSlowly(context: BrowserContext, account: Account, links: number): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/Login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(new RegExp(`/Dashboard/${account.username}$`), { timeout: 120_000 });
  await waitFor(page, 'window.__linkboardBench?.ready()', 120_000);
  await waitSynced(page, links, 20 * 60_000);
  return page;
}

/** The part on its own: an account of `links` links with words in `directories` directories, signed in on a new device. */
export async function searchScale(
  stack: RunningStack,
  context: () => Promise<BrowserContext>,
  plan: Plan,
  links = 100_000,
  directories = 200,
): Promise<Measure[]> {
  const account = await signUp(stack, 'search', 'pro');
  const seed = await seedWordLinks(stack, account, links, Math.min(directories, Math.max(1, Math.floor(links / 50))));
  plan.log(`search-scale: seeded ${links} links in ${seed.directories.length} directories`);
  const browser = await context();
  const started = performance.now();
  const page = await signInSlowly(browser, account, links);
  const firstSync = performance.now() - started;
  plan.log(`search-scale: signed in and synced in ${(firstSync / 1000).toFixed(1)} s`);
  const measures = await searchScaleMeasures(page, account, seed, plan);
  await browser.close();
  return [
    {
      name: `search-scale: sign-in → first sync done, ${links.toLocaleString('en')} links with words`,
      unit: 'ms',
      samples: [firstSync],
      note: 'one sample; the token index written with every pulled link',
    },
    ...measures,
  ];
}
