/**
 * Exploration of the offline warm start (not part of the bench): one 1,000-link account, then the
 * warm start taken several ways, with the page's own timings, to see where the time goes.
 * BOOT_SKIP_BUILD=1 reuses .bench/dist. BOOT_TRACE=path writes one trace (with screenshots).
 * BOOT_SCREEN=calendar takes the calendar's warm start instead of the directory's.
 */
import { writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright';
import { newContext, launch, openDirectory, run, signIn, waitFor } from './browser.ts';
import { openCalendar } from './calendar.ts';
import { buildApp, seedCalendar, seedDirectory, signUp, startBenchStack } from './setup.ts';
import { freePort } from '../support/free-port.ts';

const samples = Number(process.env.BOOT_SAMPLES ?? 6);

const timings = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paints = Object.fromEntries(performance.getEntriesByType('paint').map((p) => [p.name, Math.round(p.startTime)]));
  const res = performance.getEntriesByType('resource').filter((r) => r.initiatorType === 'script' || r.initiatorType === 'link' || r.initiatorType === 'other').map((r) => [r.name.split('/').pop(), Math.round(r.startTime), Math.round(r.responseEnd)]);
  return {
    online: navigator.onLine,
    first: window.__probe.first && Math.round(window.__probe.first),
    inDom: Math.round(window.__probe.firstInDom),
    presented: window.__probe.firstPresented && Math.round(window.__probe.firstPresented),
    nav: nav && { workerStart: Math.round(nav.workerStart), fetchStart: Math.round(nav.fetchStart), responseStart: Math.round(nav.responseStart), responseEnd: Math.round(nav.responseEnd), domInteractive: Math.round(nav.domInteractive), dcl: Math.round(nav.domContentLoadedEventEnd), load: Math.round(nav.loadEventEnd) },
    paints,
    marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
    res,
  };
})()`;

const offlineScript = "Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });";

async function reloadSample(page: Page): Promise<unknown> {
  await page.reload();
  await waitFor(page, 'window.__probe && window.__probe.first !== null', 30_000);
  await new Promise((r) => setTimeout(r, 300));
  return run(page, timings);
}

async function freshSample(context: BrowserContext, page: Page, url: string, stopWorker: boolean): Promise<Page> {
  await page.close();
  const next = await context.newPage();
  await next.addInitScript({ content: offlineScript });
  if (process.env.BOOT_CDP_OFFLINE) {
    const net = await context.newCDPSession(next);
    await net.send('Network.enable');
    await net.send('Network.emulateNetworkConditions', {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
  }
  if (stopWorker) {
    const cdp = await context.newCDPSession(next);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.detach();
  }
  await next.goto(url);
  await waitFor(next, 'window.__probe && window.__probe.first !== null', 30_000);
  await new Promise((r) => setTimeout(r, 300));
  console.log(JSON.stringify(await run(next, timings)));
  return next;
}

async function main(): Promise<void> {
  if (!process.env.BOOT_SKIP_BUILD) buildApp();
  const { stack } = await startBenchStack();
  const browser = await launch(await freePort());
  try {
    const mid = await signUp(stack, 'mid', 'pro');
    const dir = await seedDirectory(stack, mid, 'Bench 1000', 1000);
    const calendar = await seedCalendar(stack, mid, 500, 200);
    const context = await newContext(browser, stack);
    let page = await signIn(context, mid, 1000);
    // BOOT_SCREEN=calendar: the calendar's warm start, else the directory's.
    const onCalendar = process.env.BOOT_SCREEN === 'calendar';
    if (onCalendar) await openCalendar(page, mid);
    else await openDirectory(page, mid, dir);
    const url = page.url();
    await waitFor(page, 'navigator.serviceWorker.controller !== null');
    const first = onCalendar
      ? { check: 'calendar', args: [calendar.pending, calendar.completed] }
      : { check: 'anyItem' };
    await run(page, `localStorage.setItem('__probe.first', ${JSON.stringify(JSON.stringify(first))})`);
    await context.setOffline(true);
    console.log('--- reload');
    if (process.env.BOOT_ALL)
      for (let i = 0; i < samples; i += 1) console.log(JSON.stringify(await reloadSample(page)));
    console.log('--- new tab, worker running');
    if (process.env.BOOT_ALL) for (let i = 0; i < samples; i += 1) page = await freshSample(context, page, url, false);
    console.log('--- new tab, worker stopped');
    for (let i = 0; i < samples; i += 1) page = await freshSample(context, page, url, true);
    if (process.env.BOOT_TRACE) {
      await page.close();
      const next = await context.newPage();
      await next.addInitScript({ content: offlineScript });
      const cdp = await context.newCDPSession(next);
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      const chunks: unknown[] = [];
      cdp.on('Tracing.dataCollected', (event: { value: unknown[] }) => chunks.push(...event.value));
      const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: {
          includedCategories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'disabled-by-default-devtools.timeline.frame',
            'disabled-by-default-devtools.screenshot',
            'disabled-by-default-v8.cpu_profiler',
            'v8.execute',
            'v8',
            'blink.user_timing',
            'loading',
            'navigation',
            'ServiceWorker',
            'IndexedDB',
          ],
        },
      });
      await next.goto(url);
      await waitFor(next, 'window.__probe && window.__probe.first !== null', 30_000);
      await new Promise((r) => setTimeout(r, 300));
      console.log(JSON.stringify(await run(next, timings)));
      await next.waitForTimeout(500);
      await cdp.send('Tracing.end');
      await done;
      writeFileSync(process.env.BOOT_TRACE, JSON.stringify({ traceEvents: chunks }));
      console.log(`trace: ${process.env.BOOT_TRACE}`);
    }
    await context.close();
  } finally {
    await browser.close();
    await stack.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
