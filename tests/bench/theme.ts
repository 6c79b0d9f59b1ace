/**
 * The dark theme's cold start (docs/bench.md): no frame painted in the light theme. Each sample
 * loads a screen in a new page and counts light frames two ways:
 * - the first paint's background: what the page would paint in its first rendering step (an init
 *   script's first animation frame reads the body's background, or the canvas's colour scheme
 *   before there is a body);
 * - Chromium's trace screenshots from the first contentful paint until the screen shows, each
 *   light when the mean luminance of its four corners is over 0.5. (Frames before it may still
 *   show the browser's blank tab, white on a light system, and are not the app's.)
 * Two cases: a visitor whose system is dark, and a signed-in user who chose Dark on Profile on a
 * device whose system is light.
 */
import type { Browser, Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { signIn } from './browser.ts';
import type { Plan } from './measures.ts';
import type { Account } from './setup.ts';
import type { Measure } from './stats.ts';

interface TraceEvent {
  name: string;
  ts: number;
  args?: { snapshot?: string };
}

/** Records, in the page's first rendering step, whether it paints light. */
const FIRST_FRAME = `requestAnimationFrame(() => {
  const root = document.documentElement;
  const body = document.body;
  const style = getComputedStyle(body ?? root);
  const match = /oklch\\(([0-9.]+)(%?)/.exec(style.backgroundColor);
  const rgb = /rgba?\\(([0-9.]+), ([0-9.]+), ([0-9.]+)(?:, ([0-9.]+))?/.exec(style.backgroundColor);
  let light;
  if (match) light = Number(match[1]) / (match[2] ? 100 : 1) > 0.6;
  else if (rgb && rgb[4] !== '0') light = (0.2126 * rgb[1] + 0.7152 * rgb[2] + 0.0722 * rgb[3]) / 255 > 0.5;
  else light = getComputedStyle(root).colorScheme !== 'dark';
  window.__firstFrameLight = light;
  window.__firstFrameSeen = style.backgroundColor + ' ' + getComputedStyle(root).colorScheme;
});`;

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.screenshot', 'loading', 'blink.user_timing'];

/** Luminance (0 black to 1 white) of each JPEG frame: the mean of its four corners, decoded by Chromium. */
async function corners(decoder: Page, frames: string[]): Promise<number[]> {
  return decoder.evaluate(async (jpegs) => {
    const out: number[] = [];
    for (const jpeg of jpegs) {
      const image = new Image();
      image.src = `data:image/jpeg;base64,${jpeg}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const spots = [
        [2, 2],
        [image.width - 3, 2],
        [2, image.height - 3],
        [image.width - 3, image.height - 3],
      ];
      let sum = 0;
      for (const [x, y] of spots) {
        const [r, g, b] = context.getImageData(x!, y!, 1, 1).data;
        sum += (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
      }
      out.push(sum / spots.length);
    }
    return out;
  }, frames);
}

/** Light frames painted from the first paint of `path` until `shown` resolves; throws when none was captured. */
async function lightFrames(browser: Browser, page: Page, decoder: Page, path: string, shown: () => Promise<unknown>) {
  await browser.startTracing(page, { screenshots: true, categories: CATEGORIES });
  await page.goto(path);
  await shown();
  // The first contentful paint's trace event is written once the browser knows when that frame was
  // presented: wait for the page's own entry (set at the same time), then one more frame.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        new PerformanceObserver((list, observer) => {
          if (list.getEntriesByName('first-contentful-paint').length === 0) return;
          observer.disconnect();
          requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
        }).observe({ type: 'paint', buffered: true });
      }),
  );
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const firstPaint = Math.min(
    ...trace.traceEvents.filter((event) => event.name === 'firstContentfulPaint').map((event) => event.ts),
  );
  if (!Number.isFinite(firstPaint)) throw new Error(`no first contentful paint traced for ${path}`);
  const firstFrameLight = await page.evaluate(
    () => (window as unknown as { __firstFrameLight?: boolean }).__firstFrameLight,
  );
  if (firstFrameLight === undefined) throw new Error(`no first frame recorded for ${path}`);
  // The frame on screen at the first paint is the last one captured at or before it, if any.
  const shots = trace.traceEvents
    .filter((event) => event.name === 'Screenshot' && event.args?.snapshot)
    .sort((a, b) => a.ts - b.ts);
  const from = Math.max(
    0,
    shots.findLastIndex((shot) => shot.ts <= firstPaint),
  );
  const frames = shots.slice(from).map((shot) => shot.args!.snapshot!);
  if (frames.length === 0) throw new Error(`no frame captured for ${path}`);
  const luminance = await corners(decoder, frames);
  return {
    light: (firstFrameLight ? 1 : 0) + luminance.filter((value) => value > 0.5).length,
    frames: 1 + frames.length,
  };
}

/** Waits until the account's profile on the server holds `theme` (pushed by the app). */
async function savedTheme(stack: RunningStack, account: Account, theme: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await stack.db.query<{ theme: string }>('select theme from public.user_profiles where id = $1', [
      account.id,
    ]);
    if (rows[0]?.theme === theme) return;
    if (Date.now() > deadline) throw new Error(`the profile's theme is still ${rows[0]?.theme ?? 'missing'}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function darkColdStart(
  browser: Browser,
  stack: RunningStack,
  account: Account,
  plan: Plan,
): Promise<Measure[]> {
  const decoder = await (await browser.newContext()).newPage();
  const visitor: number[] = [];
  const chosen: number[] = [];
  let frames = 0;
  for (let i = 0; i < plan.samples; i++) {
    const context = await browser.newContext({ baseURL: stack.url, colorScheme: 'dark' });
    await context.addInitScript({ content: FIRST_FRAME });
    const page = await context.newPage();
    const result = await lightFrames(browser, page, decoder, '/', () =>
      page.getByRole('heading', { level: 1 }).waitFor(),
    );
    visitor.push(result.light);
    frames += result.frames;
    await context.close();
  }
  plan.log(`dark cold start, visitor: ${frames} frames checked`);

  // A device whose system is light, where the user chose Dark on Profile.
  const context = await browser.newContext({ baseURL: stack.url, colorScheme: 'light' });
  await context.addInitScript({ content: FIRST_FRAME });
  const first = await signIn(context, account, 0);
  await first.goto(`/Profile/${account.username}`);
  await first.getByRole('radio', { name: 'Dark' }).click();
  // The choice is the profile's (synced): closed before it is saved, the next start would show the
  // profile's earlier 'system', light here. Wait until the server holds it.
  await savedTheme(stack, account, 'dark');
  await first.close();
  frames = 0;
  for (let i = 0; i < plan.samples; i++) {
    const page = await context.newPage();
    const result = await lightFrames(browser, page, decoder, `/Dashboard/${account.username}`, () =>
      page.getByRole('heading', { name: "Today's Focus" }).waitFor({ timeout: 60_000 }),
    );
    chosen.push(result.light);
    frames += result.frames;
    await page.close();
  }
  plan.log(`dark cold start, chosen on Profile: ${frames} frames checked`);
  await context.close();
  await decoder.context().close();
  const bar = { median: 0, p95: 0 };
  return [
    { name: 'cold start in dark (system dark, landing): frames painted light', unit: 'count', samples: visitor, bar },
    {
      name: 'cold start in dark (chosen on Profile, system light, dashboard): frames painted light',
      unit: 'count',
      samples: chosen,
      bar,
    },
  ];
}
