/** Each bar of docs/bench.md, measured in the page. */
import type { BrowserContext, Page } from 'playwright';
import type { LinkRow } from '../../src/data/rows.ts';
import type { BenchHook } from '../../src/perf/bench-hook.ts';
import { searchList } from '../../src/features/links/link-filters.ts';
import { HAND_CLICK, hook, probeResult, probeStart, run, waitSynced, type ProbeResult } from './browser.ts';
import { seededTags, seededTitle, seededUrl } from './setup.ts';
import type { Measure } from './stats.ts';

export interface Plan {
  warmups: number;
  samples: number;
  log(message: string): void;
}

const MUTATION_BAR = { median: 16, p95: 50 };
/** Between a click into a field and the first key typed: a hand's shortest, well under a person's usual. */
const HAND_PAUSE_MS = 250;

export function painted(result: ProbeResult, what: string): number {
  if (result.timeout || result.toPaint === undefined) throw new Error(`${what}: the change never reached the screen`);
  return result.toPaint;
}

/** Add Link: from the click on the dialog's Add Link button to the new link painted in the list. */
async function addLinkOnce(page: Page, title: string): Promise<number> {
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill(`https://added.test/${encodeURIComponent(title)}`);
  await dialog.getByLabel('Title').fill(title);
  await probeStart(page, 'add', { event: 'click', check: 'hasTitle', args: [title] });
  await dialog.getByRole('button', { name: 'Add Link' }).click(HAND_CLICK);
  const ms = painted(await probeResult(page, 'add'), `add ${title}`);
  await dialog.waitFor({ state: 'hidden' });
  return ms;
}

/** Favourite toggle (Edit Link's star, then Save Changes) to the star painted or gone on the card. */
async function toggleFavoriteOnce(page: Page, title: string, to: boolean): Promise<number> {
  await page
    .getByRole('button', { name: `Actions for ${title}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Link' });
  await dialog.getByRole('button', { name: to ? 'Add to favorites' : 'Remove from favorites' }).click();
  await probeStart(page, 'fav', { event: 'click', check: 'favorite', args: [title, to] });
  await dialog.getByRole('button', { name: 'Save Changes' }).click(HAND_CLICK);
  const ms = painted(await probeResult(page, 'fav'), `favourite ${title}`);
  await dialog.waitFor({ state: 'hidden' });
  return ms;
}

/** Mutation → UI at one directory size: add link, then favourite toggles of the newest link. */
export async function mutationToUi(page: Page, size: string, plan: Plan): Promise<Measure[]> {
  const add: number[] = [];
  const favorite: number[] = [];
  const tag = Date.now().toString(36);
  let last = '';
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    last = `Added ${size} ${tag} ${i}`;
    const ms = await addLinkOnce(page, last);
    if (i >= plan.warmups) add.push(ms);
  }
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    const ms = await toggleFavoriteOnce(page, last, i % 2 === 0);
    if (i >= plan.warmups) favorite.push(ms);
  }
  plan.log(`mutation → UI at ${size}: add ${add.length}, favourite ${favorite.length} samples`);
  return [
    { name: `add link → UI painted, ${size} links`, unit: 'ms', samples: add, bar: MUTATION_BAR },
    {
      name: `favourite toggle → UI painted, ${size} links`,
      unit: 'ms',
      samples: favorite,
      bar: MUTATION_BAR,
      note: 'Edit Link, star, Save Changes: link.update then link.set_favorite',
    },
  ];
}

/** The seeded links of a directory of `count`, newest (i = 1) first, as the app holds them. */
const seededRows = (count: number): LinkRow[] =>
  Array.from({ length: count }, (_, k) => {
    const i = k + 1;
    const at = new Date(Date.UTC(2026, 0, 1) - i * 1000).toISOString();
    return {
      id: `link-${i}`,
      title: seededTitle(i),
      url: seededUrl(i),
      tags: seededTags(i),
      created_at: at,
    } as LinkRow;
  });

/** What the list should show first for a query: the first link of the app's own search order (searchList). */
function expectedFirst(rows: readonly LinkRow[], query: string): string | null {
  if (query.trim() === '') return rows[0]?.title ?? null;
  return searchList(rows, query)[0]?.title ?? null;
}

/**
 * Typing into the search of a directory of `count` seeded links (and nothing else yet): each
 * keystroke from keydown to the list painted with its first match (the exact number first, then
 * longer numbers: docs/product.md, Links screen). Numbers are typed digit by digit and erased, so
 * every keystroke changes the first link.
 */
export async function search(page: Page, count: number, plan: Plan): Promise<Measure> {
  const input = page.getByRole('searchbox', { name: 'Search' });
  await input.click();
  // A person's first key comes a moment after the click into the box (HAND_PAUSE), not within the
  // same few milliseconds.
  await page.waitForTimeout(HAND_PAUSE_MS);
  const samples: number[] = [];
  let query = '';
  let keys = 0;
  const numbers = ['7319', '8462', '5173', '9284', '6391', '4728', '3857'];
  const rows = seededRows(count);
  for (let n = 0; samples.length < plan.samples; n += 1) {
    const number = numbers[n % numbers.length]!;
    const strokes = [...number.split(''), ...number.split('').map(() => 'Backspace')];
    for (const key of strokes) {
      query = key === 'Backspace' ? query.slice(0, -1) : query + key;
      await probeStart(page, 'key', { event: 'keydown', check: 'firstTitle', args: [expectedFirst(rows, query)] });
      await page.keyboard.press(key);
      const ms = painted(await probeResult(page, 'key'), `search '${query}'`);
      keys += 1;
      if (keys > plan.warmups) samples.push(ms);
    }
  }
  await input.fill('');
  return {
    name: `search per keystroke → list painted, ${count.toLocaleString('en')} links`,
    unit: 'ms',
    samples,
    bar: { median: 50, p95: 50 },
    note: 'keydown to the paint showing the first match (a directory of up to 25,000 links matched in memory, a larger one through the token index: link-window.ts, link-search.ts)',
  };
}

type SyncTiming = Awaited<ReturnType<BenchHook['sync']>>;

/** Queue 1,000 link.create offline through the app's mutate; back online, time to 'Synced' with the outbox empty. */
export async function push(context: BrowserContext, page: Page, directories: string[], plan: Plan): Promise<Measure[]> {
  const samples: number[] = [];
  const queue: number[] = [];
  const rpc: number[] = [];
  const rounds = plan.warmups + plan.samples;
  for (let i = 0; i < rounds; i += 1) {
    const dir = directories[i % directories.length]!;
    await context.setOffline(true);
    const queued = await run<number>(page, hook(`queueLinks(${JSON.stringify(dir)}, 1000, 'push${i}')`));
    await run(page, 'performance.clearResourceTimings()');
    await run(page, hook('armOnline()'));
    await context.setOffline(false);
    const done = await run<{ ms: number; pushMs: number; pushes: number; outbox: number }>(
      page,
      hook('onlineToSynced()'),
    );
    if (done.outbox !== 0) throw new Error(`push: ${done.outbox} left in the outbox`);
    if (i >= plan.warmups) {
      samples.push(done.ms);
      queue.push(queued);
      rpc.push(done.pushMs);
    }
    plan.log(`push round ${i + 1}/${rounds}: ${done.ms.toFixed(0)} ms (${done.pushes} sync_push calls)`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  return [
    {
      name: 'push 1,000 queued mutations (online → Synced)',
      unit: 'ms',
      samples,
      bar: { median: 2000 },
      note: `from the online event to the status Synced with the outbox empty (push and the pull after it); sync_push calls took ${median(rpc).toFixed(0)} ms (median)`,
    },
    {
      name: 'queue 1,000 mutations offline (app mutate, one by one)',
      unit: 'ms',
      samples: queue,
      note: 'no bar of its own (an import of 5,000 bookmarks must fit in 3 s)',
    },
  ];
}

/** Empty the local database, sync (a first pull), then a raw Dexie bulkPut of the same rows. */
export async function firstPull(page: Page, count: number, plan: Plan): Promise<Measure[]> {
  const total: number[] = [];
  const idb: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    await run(page, hook('clearLocal()'));
    const timing = await run<SyncTiming>(page, hook('sync()'));
    const counts = await run<Record<string, number>>(page, hook('counts()'));
    if (timing.outcome !== 'synced' || (counts.saved_links ?? 0) < count) {
      throw new Error(`first pull: ${timing.outcome}, ${counts.saved_links} links`);
    }
    const put = await run<{ ms: number; rows: number }>(page, hook('rawBulkPut()'));
    if (i >= plan.warmups) {
      total.push(timing.ms);
      idb.push(timing.ms - timing.pullMs - timing.pushMs);
      raw.push(put.ms);
    }
    plan.log(
      `first pull ${i + 1}: ${timing.ms.toFixed(0)} ms (${timing.pulls} pages, RPC ${timing.pullMs.toFixed(0)} ms); raw bulkPut ${put.ms.toFixed(0)} ms`,
    );
  }
  const rawMedian = [...raw].sort((a, b) => a - b)[Math.floor(raw.length / 2)] ?? NaN;
  const rate = count / (total.reduce((a, b) => a + b, 0) / total.length / 1000);
  return [
    {
      name: `first pull of ${count.toLocaleString('en')} rows`,
      unit: 'ms',
      samples: total,
      bar: { median: 2000 },
      note: `engine.sync() into an emptied database; about ${Math.round(rate).toLocaleString('en')} rows/s`,
    },
    {
      name: 'first pull: IndexedDB part',
      unit: 'ms',
      samples: idb,
      bar: { ratio: 1.5 },
      limit: { name: 'raw bulkPut', median: rawMedian },
      note: 'the sync minus its sync_pull calls (request to last byte, Resource Timing); ratio ≤ 1.5× a raw Dexie bulkPut of the same rows into a fresh database',
    },
    { name: 'raw Dexie bulkPut of the same rows', unit: 'ms', samples: raw },
  ];
}

/** engine.sync() with nothing to push or pull, beside a bare round trip to the stack. */
export async function noopSync(page: Page, plan: Plan): Promise<Measure[]> {
  const sync: number[] = [];
  const bare: number[] = [];
  // The page may just have come back online (the warm start before this measure): wait for a sync
  // that reaches the server (the network restored, the reconnect's own sync and preview asks done).
  const deadline = Date.now() + 30_000;
  while ((await run<SyncTiming>(page, hook('sync()'))).outcome !== 'synced') {
    if (Date.now() > deadline) throw new Error('no-op sync: the page did not reach the server again');
    await page.waitForTimeout(200);
  }
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    const timing = await run<SyncTiming>(page, hook('sync()'));
    if (timing.outcome !== 'synced') throw new Error(`no-op sync: ${timing.outcome}`);
    const rtt = await run<number>(page, hook('bareRoundTrip()'));
    if (i >= plan.warmups) {
      sync.push(timing.ms);
      bare.push(rtt);
    }
  }
  const bareMedian = [...bare].sort((a, b) => a - b)[Math.floor(bare.length / 2)] ?? NaN;
  return [
    {
      name: 'sync with nothing to do',
      unit: 'ms',
      samples: sync,
      bar: { median: 50, p95: 80 },
      limit: { name: 'bare round trip', median: bareMedian },
    },
    { name: 'bare round trip (GET /_health)', unit: 'ms', samples: bare },
  ];
}

/** Another device of the same user, both online: Add Link on A until the link is painted on B. */
export async function otherDevice(
  a: Page,
  b: Page,
  plan: Plan & { realtimeSamples: number; capMs: number },
): Promise<Measure> {
  const samples: number[] = [];
  let timeouts = 0;
  const tag = Date.now().toString(36);
  for (let i = 0; i < plan.realtimeSamples; i += 1) {
    const title = `Other device ${tag} ${i}`;
    await a.getByRole('button', { name: 'Add Link', exact: true }).click();
    const dialog = a.getByRole('dialog', { name: 'Add Link' });
    await dialog.getByLabel('URL').fill(`https://other.test/${i}`);
    await dialog.getByLabel('Title').fill(title);
    await probeStart(a, 'sent', { event: 'click', check: 'hasTitle', args: [title] });
    await probeStart(b, 'seen', { check: 'hasTitle', args: [title], timeoutMs: plan.capMs });
    await dialog.getByRole('button', { name: 'Add Link' }).click();
    const sent = await probeResult(a, 'sent');
    const seen = await probeResult(b, 'seen');
    if (seen.timeout || seen.paintAt === undefined || sent.eventAt === undefined) {
      timeouts += 1;
      samples.push(plan.capMs);
    } else samples.push(seen.paintAt - sent.eventAt);
    plan.log(`other device ${i + 1}/${plan.realtimeSamples}: ${(samples.at(-1)! / 1000).toFixed(2)} s`);
  }
  await waitSynced(b, 0);
  return {
    name: 'a change on another device → painted there (both online)',
    unit: 'ms',
    samples,
    bar: { p95: 1000 },
    note: `two browser contexts of one user, B's Realtime channel joined; click on A to the paint on B (epoch clocks)${timeouts ? `; ${timeouts} sample(s) not seen within ${plan.capMs / 1000} s, counted as ${plan.capMs / 1000} s` : ''}`,
  };
}
