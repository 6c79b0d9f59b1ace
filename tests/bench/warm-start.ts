/**
 * The offline warm start (docs/bench.md, "The offline warm start"): the page opened in a new tab
 * with the context offline and the service worker stopped, timed from navigation start to the
 * frame presented with the screen's first real content (probe.ts checks).
 */
import type { BrowserContext, Page } from 'playwright';
import { run, waitFor } from './browser.ts';
import type { Plan } from './measures.ts';
import type { Measure } from './stats.ts';

/** What ends a warm start: a check of tests/bench/probe.ts and its arguments. */
export interface FirstContent {
  check: string;
  args?: unknown[];
}

/** How each warm start opens the app (docs/bench.md, offline warm start). */
export type WarmStartMode = 'tab' | 'reload';

/** One warm start's figures, in ms from the new document's navigation start (performance.timeOrigin). */
export interface WarmStartSample {
  /** After the frame that shows the content: rAF, then a message (the main thread's frame done). */
  painted: number;
  /** That frame as presented (Element Timing's renderTime of the content's text), when reported. */
  presented: number | null;
  /** The content complete in the DOM. */
  inDom: number;
}

const firstKey = '__probe.first';
const offlineNavigator =
  "Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });";

/** Waits for the probe's warm start figures in this page. */
async function readFirst(page: Page): Promise<WarmStartSample> {
  await waitFor(page, 'window.__probe && window.__probe.first !== null', 30_000);
  // Element Timing reports the presentation a frame or two later; at most 1 s more.
  await waitFor(
    page,
    'window.__probe.firstPresented !== undefined || performance.now() - window.__probe.first > 1000',
    5_000,
  ).catch(() => undefined);
  const probe = await run<{ first: number; firstInDom: number; firstPresented?: number }>(
    page,
    '({ first: window.__probe.first, firstInDom: window.__probe.firstInDom, firstPresented: window.__probe.firstPresented })',
  );
  return { painted: probe.first, presented: probe.firstPresented ?? null, inDom: probe.firstInDom };
}

/**
 * The offline warm start of the page's current address, as a user has it when opening the app
 * again: the service worker installed, the device offline, and (mode 'tab', the default) each
 * sample a new tab opened at the address after the previous one was closed, with the service
 * worker stopped first (as it is once the app has been left for 30 s), so nothing of the last
 * start is still running in the page's process. Mode 'reload' (BENCH_WARM_START=reload) reloads
 * the same tab instead, as the bench did before: its process, compiled code and worker are warm.
 * Each sample runs from the new document's navigation start to the frame that shows `first`.
 * The page is back online at its address afterwards.
 */
export async function warmStartRuns(
  context: BrowserContext,
  page: Page,
  first: FirstContent,
  plan: Plan,
  mode: WarmStartMode = process.env.BENCH_WARM_START === 'reload' ? 'reload' : 'tab',
): Promise<WarmStartSample[]> {
  await waitFor(page, 'navigator.serviceWorker.controller !== null');
  const url = page.url();
  const named = JSON.stringify(JSON.stringify(first));
  // localStorage: a new tab has a sessionStorage of its own.
  await run(page, `localStorage.setItem('${firstKey}', ${named})`);
  const samples: WarmStartSample[] = [];
  try {
    if (mode === 'reload') {
      await context.setOffline(true);
      for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
        await page.reload();
        const sample = await readFirst(page);
        if (i >= plan.warmups) samples.push(sample);
      }
    } else {
      // The bench's tab leaves the app (its database connection and sync engine with it).
      await page.goto('about:blank');
      await context.setOffline(true);
      for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
        const tab = await context.newPage();
        // An offline device's browser says so (navigator.onLine false). Playwright's offline context
        // fails every request but leaves a new tab's navigator.onLine true, as on a network that
        // fails without the device knowing: the app would then try the server first.
        await tab.addInitScript({ content: offlineNavigator });
        const cdp = await context.newCDPSession(tab);
        await cdp.send('ServiceWorker.enable');
        await cdp.send('ServiceWorker.stopAllWorkers');
        await cdp.detach();
        await tab.goto(url);
        const sample = await readFirst(tab);
        await tab.close();
        if (i >= plan.warmups) samples.push(sample);
      }
    }
  } finally {
    await context.setOffline(false);
    if (page.url() !== url) await page.goto(url);
    await run(page, `localStorage.removeItem('${firstKey}')`);
    // The measures that follow drive the session through the bench hook: wait for it.
    await waitFor(page, 'window.__linkboardBench?.ready()');
  }
  return samples;
}

/** The warm starts' medians of each figure, for a measure's note. */
export function warmStartNote(samples: WarmStartSample[]): string {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? Math.round(sorted[Math.floor(sorted.length / 2)]!) : NaN;
  };
  const presented = samples.map((s) => s.presented).filter((v): v is number => v !== null);
  return `medians: in the DOM ${median(samples.map((s) => s.inDom))} ms, frame done ${median(samples.map((s) => s.painted))} ms, presented ${presented.length ? `${median(presented)} ms` : 'not reported'}`;
}

/** The warm start samples (ms to the frame that shows `first`), see warmStartRuns. */
export async function warmStartSamples(
  context: BrowserContext,
  page: Page,
  first: FirstContent,
  plan: Plan,
): Promise<number[]> {
  return (await warmStartRuns(context, page, first, plan)).map((sample) => sample.presented ?? sample.painted);
}

/** Offline, a new tab: time from navigation start to the first link presented (warmStartRuns). */
export async function warmStart(context: BrowserContext, page: Page, plan: Plan): Promise<Measure> {
  return {
    name: 'offline warm start → links list painted (1,000 links, 500 events)',
    unit: 'ms',
    samples: await warmStartSamples(context, page, { check: 'anyItem' }, plan),
    bar: { median: 400 },
    note: 'context offline, the directory page opened in a new tab with the service worker stopped (warmStartRuns); navigation start to the frame presented with the first link card',
  };
}
