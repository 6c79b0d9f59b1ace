/** Per route: the gzipped JS the page loads (sized from the build), and Lighthouse mobile scores. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import type { Browser, BrowserContext } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { benchDist } from './setup.ts';
import type { Measure } from './stats.ts';

export interface Route {
  name: string;
  path: string;
  /** KB of gzipped JS (docs/bench.md for the landing page and the dashboard, for visitors' pages). */
  budgetKb?: number;
  /** Open in this signed-in context instead of a fresh one. */
  context?: BrowserContext;
}

/**
 * Every JS file the page requests until the network is idle (the service worker blocked, the
 * cache disabled, so lazily loaded chunks such as supabase-js for the first sync count too),
 * each gzipped at level 9 from the build.
 */
export async function jsPerRoute(browser: Browser, stack: RunningStack, routes: Route[]): Promise<Measure[]> {
  const measures: Measure[] = [];
  for (const route of routes) {
    const context = route.context ?? (await browser.newContext({ baseURL: stack.url, serviceWorkers: 'block' }));
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const files = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      // The bench build's own hook (src/perf, a few hundred bytes) is not the app's.
      const own = url.pathname.endsWith('/sw.js') || url.pathname.includes('/bench-hook-');
      if (url.origin === stack.url && url.pathname.endsWith('.js') && !own) {
        files.add(url.pathname);
      }
    });
    await page.goto(route.path, { waitUntil: 'networkidle' });
    await page.waitForTimeout(1000);
    let bytes = 0;
    const sizes = [...files].map((file) => ({
      file,
      gz: gzipSync(readFileSync(join(benchDist, file)), { level: 9 }).length,
    }));
    for (const { gz } of sizes) bytes += gz;
    // BENCH_JS_FILES=1: each file the route loaded, the largest first (where a budget's bytes go).
    if (process.env.BENCH_JS_FILES === '1') {
      for (const { file, gz } of sizes.sort((a, b) => b.gz - a.gz))
        console.log(`  ${route.name}: ${(gz / 1024).toFixed(1)} KB ${file}`);
    }
    await page.close();
    if (!route.context) await context.close();
    measures.push({
      name: `JS gz, ${route.name}`,
      unit: 'KB',
      samples: [bytes / 1024],
      bar: route.budgetKb === undefined ? undefined : { median: route.budgetKb },
      note: `${files.size} files loaded by ${route.path.replace(/[0-9a-f-]{36}/, '{id}')}`,
    });
  }
  return measures;
}

interface LighthouseCategories {
  performance?: { score: number | null };
  accessibility?: { score: number | null };
}

/** Lighthouse (its default: mobile, simulated throttling) on the bench's Chromium, `runs` times per route. */
export async function lighthouseScores(
  port: number,
  stack: RunningStack,
  routes: Route[],
  runs: number,
  log: (message: string) => void,
): Promise<Measure[]> {
  const measures: Measure[] = [];
  for (const route of routes) {
    const performance: number[] = [];
    const accessibility: number[] = [];
    let errors = 0;
    for (let i = 0; i < runs; i += 1) {
      // A run Lighthouse itself reports as broken (NO_NAVSTART and the like: a flaky trace) is run
      // again, up to 3 times, rather than counted as a score of 0.
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const result = await lighthouse(`${stack.url}${route.path}`, {
          port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        });
        const error = result?.lhr.runtimeError;
        if (error || !result) {
          errors += 1;
          log(`lighthouse ${route.name}: ${error?.code ?? 'no result'} (attempt ${attempt})`);
          continue;
        }
        const categories = result.lhr.categories as LighthouseCategories;
        const score = (value: { score: number | null } | undefined) => Math.round((value?.score ?? 0) * 100);
        performance.push(score(categories.performance));
        // What the score is made of, so a low one says where to look.
        const metric = (id: string) => result.lhr.audits[id]?.numericValue ?? NaN;
        log(
          `lighthouse ${route.name}: FCP ${metric('first-contentful-paint').toFixed(0)} ms, ` +
            `LCP ${metric('largest-contentful-paint').toFixed(0)} ms, TBT ${metric('total-blocking-time').toFixed(0)} ms, ` +
            `CLS ${metric('cumulative-layout-shift').toFixed(3)}, SI ${metric('speed-index').toFixed(0)} ms`,
        );
        // Which elements moved, when anything did.
        const shifts = result.lhr.audits['layout-shifts']?.details as
          { items?: { node?: { snippet?: string; selector?: string }; score?: number }[] } | undefined;
        for (const item of shifts?.items ?? []) {
          log(
            `lighthouse ${route.name}: layout shift ${item.score?.toFixed(3)} of ${item.node?.selector ?? '?'} ${item.node?.snippet?.slice(0, 120) ?? ''}`,
          );
        }
        accessibility.push(score(categories.accessibility));
        break;
      }
    }
    const note = errors ? `${errors} run(s) Lighthouse reported broken were run again` : undefined;
    log(`lighthouse ${route.name}: performance ${performance.join(', ')}; accessibility ${accessibility.join(', ')}`);
    measures.push(
      {
        name: `Lighthouse mobile performance, ${route.name}`,
        unit: 'score',
        samples: performance,
        bar: { median: 95, direction: 'min' },
        note,
      },
      {
        name: `Lighthouse accessibility, ${route.name}`,
        unit: 'score',
        samples: accessibility,
        bar: { median: 95, direction: 'min' },
      },
    );
  }
  return measures;
}
