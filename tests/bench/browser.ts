/** Chromium through Playwright: the launch, signed-in contexts, and waiting for a synced page. */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, devices, type Browser, type BrowserContext, type Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import type { Account } from './setup.ts';
import { probeScript } from './probe.ts';
import { chromiumArgs, chromiumPath } from '../support/chromium.ts';
import { joinedTopic } from '../support/realtime-frame.ts';

export { chromiumPath };

export async function launch(debuggingPort: number): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      ...chromiumArgs,
      // Lighthouse drives the same browser through this port.
      `--remote-debugging-port=${debuggingPort}`,
    ],
  });
}

/**
 * A device: its own Chromium with a profile on disk, as a user's browser keeps IndexedDB.
 * A context of a launched browser is an incognito profile, whose IndexedDB Chromium keeps in
 * memory with another backend that is several times slower on large transactions (here 10,000
 * puts in one transaction: 3.6 s in memory, 0.73 s on disk), which no user runs the app in.
 * BENCH_INCOGNITO=1 measures in incognito contexts of `browser` instead.
 */
export async function newContext(browser: Browser, stack: RunningStack): Promise<BrowserContext> {
  const options = { ...devices['Desktop Chrome'], baseURL: stack.url };
  let context: BrowserContext;
  if (process.env.BENCH_INCOGNITO === '1') context = await browser.newContext(options);
  else {
    const profile = mkdtempSync(join(tmpdir(), 'linkboard-bench-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      ...options,
      executablePath: chromiumPath,
      args: chromiumArgs,
    });
    // Chromium may still be writing the profile as it exits: retried, and never failing the run.
    context.once('close', () => void rm(profile, { recursive: true, force: true, maxRetries: 10 }).catch(() => {}));
    // The blank page a persistent profile opens with is not a tab of the app.
    for (const page of context.pages()) await page.close();
  }
  await context.addInitScript({ content: probeScript });
  return context;
}

/** Evaluates a JavaScript expression in the page (strings: nothing of the Node transpiler reaches the page). */
export async function run<T>(page: Page, expression: string): Promise<T> {
  return (await page.evaluate(expression)) as T;
}

export const hook = (call: string) => `window.__linkboardBench.${call}`;

/** Polls a JavaScript expression until it is truthy (waitForFunction would eval under the app's CSP). */
export async function waitFor(page: Page, expression: string, timeout = 60_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (
    !(await run<unknown>(page, `(async () => { try { return !!(await (${expression})); } catch { return false; } })()`))
  ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
    await page.waitForTimeout(50);
  }
}

/** Rows the local database must hold: a number of links, or at least so many rows per table. */
export type Expected = number | Record<string, number>;

/** Signs in through the Login page and waits for the first sync to bring the `expected` rows. */
export async function signIn(context: BrowserContext, account: Account, expected: Expected): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/Login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(new RegExp(`/Dashboard/${account.username}$`), { timeout: 60_000 });
  await waitFor(page, 'window.__linkboardBench?.ready()');
  await waitSynced(page, expected);
  return page;
}

/**
 * Waits for the status badge to say Synced with at least the `expected` rows in the local
 * database, and for the words of a pull from scratch to be indexed (the measures after it are of
 * a device at rest: docs/scale.md, "The first sync's words").
 */
export async function waitSynced(page: Page, expected: Expected, timeout = 120_000): Promise<void> {
  const rows = typeof expected === 'number' ? { saved_links: expected } : expected;
  const deadline = Date.now() + timeout;
  for (;;) {
    const counts = await run<Record<string, number>>(page, hook('counts()'));
    const state = await page.getByRole('status', { name: 'Sync status' }).first().getAttribute('data-state');
    const synced = state === 'synced' && Object.entries(rows).every(([table, count]) => (counts[table] ?? 0) >= count);
    if (synced && !(await run<boolean>(page, hook('wordBacklog()')))) return;
    if (Date.now() > deadline) {
      const have = Object.entries(rows).map(([table, count]) => `${counts[table]} ${table} of ${count}`);
      throw new Error(`not synced: ${state}, ${have.join(', ')}`);
    }
    await page.waitForTimeout(200);
  }
}

/** The Links screen of one directory, with its first link painted. */
export async function openDirectory(page: Page, account: Account, directoryId: string): Promise<void> {
  await page.goto(`/Links/${account.username}/dir/${directoryId}`);
  await page.locator('[data-testid="link-card"]').first().waitFor({ timeout: 60_000 });
}

/**
 * A click as a hand makes it: the button held 80 ms between press and release. Playwright's
 * plain click sends both in the same millisecond, so the click event's clock (its timeStamp,
 * taken at the press) would count the press's own handling (focus leaving the field, hover and
 * focus styles: 4-6 ms measured with the Event Timing API) that a hand's release never waits for.
 */
export const HAND_CLICK = { delay: 80 } as const;

export interface ProbeResult {
  toDom?: number;
  toPaint?: number;
  eventAt?: number;
  paintAt?: number;
  timeout?: boolean;
}

export function probeStart(
  page: Page,
  key: string,
  spec: { event?: 'click' | 'keydown' | 'scroll'; check: string; args?: unknown[]; timeoutMs?: number },
): Promise<void> {
  return run(page, `window.__probe.start(${JSON.stringify(key)}, ${JSON.stringify(spec)})`);
}

export function probeResult(page: Page, key: string): Promise<ProbeResult> {
  return run<ProbeResult>(page, `window.__probe.result(${JSON.stringify(key)})`);
}

/**
 * Watches a context's Realtime sockets (/realtime/v1/websocket): `next()` resolves when a page of it
 * next has its user's private channel joined (the server's phx_reply ok), so a measure can start
 * once the server listens for that device.
 */
export function watchRealtime(context: BrowserContext): { next(): Promise<void> } {
  let waiting: (() => void)[] = [];
  const onPage = (page: Page) =>
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/realtime/v1/websocket')) return;
      socket.on('framereceived', ({ payload }) => {
        if (!joinedTopic(payload)?.startsWith('user:')) return;
        const resolved = waiting;
        waiting = [];
        for (const resolve of resolved) resolve();
      });
    });
  context.pages().forEach(onPage);
  context.on('page', onPage);
  return { next: () => new Promise<void>((resolve) => waiting.push(resolve)) };
}
