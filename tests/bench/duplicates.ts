/** Add Link's duplicate check at a directory of seeded links (docs/bench.md, docs/product.md Duplicate links). */
import type { Page } from 'playwright';
import type { BenchHook } from '../../src/perf/bench-hook.ts';
import { hook, probeResult, probeStart, run, waitFor } from './browser.ts';
import { painted, type Plan } from './measures.ts';
import type { Measure } from './stats.ts';

type Lookup = Awaited<ReturnType<BenchHook['savedCopies']>>;

/**
 * Two figures over `count` seeded links (`https://example.com/page/{i}`) in directory `name`:
 * the check a save runs when its answer is not known yet (the URL's key, the index lookup, the
 * directory), timed in the page; and, in the open Add Link dialog, the keystroke that makes the
 * URL a duplicate to the paint of 'Already saved in {name}'.
 */
export async function duplicateCheck(page: Page, count: number, name: string, plan: Plan): Promise<Measure[]> {
  const lookups: number[] = [];
  const typed: number[] = [];
  const rounds = plan.warmups + plan.samples;
  const seeded = (i: number) => 1 + ((i * 7919) % count);
  for (let i = 0; i < rounds; i += 1) {
    const url = `http://www.example.com/page/${seeded(i)}/?utm_source=bench&utm_medium=email&fbclid=IwAR${i}`;
    const result = await run<Lookup>(page, hook(`savedCopies(${JSON.stringify(url)})`));
    if (result.found !== 1) throw new Error(`duplicate check: ${url} found in ${result.found} directories`);
    if (i >= plan.warmups) lookups.push(result.ms);
  }
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  const field = dialog.getByLabel('URL');
  const said = `Already saved in ${name}`;
  for (let i = 0; i < rounds; i += 1) {
    // One key away from a seeded link: Backspace takes the 'x' off and leaves its address.
    await field.fill(`http://www.example.com/page/${seeded(i + rounds)}/x`);
    await waitFor(page, `!document.querySelector('[role="dialog"] [role="status"]')?.textContent`);
    await probeStart(page, 'dupe', { event: 'keydown', check: 'dialogStatus', args: [said] });
    await field.press('Backspace');
    const ms = painted(await probeResult(page, 'dupe'), `duplicate notice ${i}`);
    if (i >= plan.warmups) typed.push(ms);
  }
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const size = count.toLocaleString('en');
  return [
    {
      name: `duplicate check on saving, ${size} links`,
      unit: 'ms',
      samples: lookups,
      bar: { p95: 16 },
      note: 'savedCopies in the page: the URL with tracking keyed (normalize-url), the _urlKey index, the directory and role',
    },
    {
      name: `URL typed → 'Already saved in …' painted, ${size} links`,
      unit: 'ms',
      samples: typed,
      note: 'Add Link: the keystroke that makes the URL a seeded link’s, to the notice painted (useDeferredValue, a live query)',
    },
  ];
}
