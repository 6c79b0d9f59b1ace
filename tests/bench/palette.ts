/**
 * The command palette's measures (docs/bench.md, palette; docs/product.md, Command palette) over 10,000
 * links, 1,000 events and 100 polls: Ctrl+K to the first results painted (its code already loaded),
 * Ctrl+K to the first links painted (the index kept, and read again after a change), and a keystroke
 * to the Links group's new first result painted.
 */
import type { BrowserContext, Page } from 'playwright';
import type { RunningStack } from '../../supabase/local/server.ts';
import { hook, probeResult, probeStart, run, signIn, waitFor, waitSynced } from './browser.ts';
import { painted, type Plan } from './measures.ts';
import { seedCalendar, seedDirectory, seededTitle, seedPolls, signUp } from './setup.ts';
import type { Measure } from './stats.ts';

const LINKS = 10_000;
const EVENTS = 1000;
const POLLS = 100;

const dialogClosed = `!document.querySelector('[role="dialog"]')`;

/**
 * The first link the palette lists for `digits` typed: the seeded titles are 'Link number {i}',
 * the newest (i = 1) first; a word of the title starting with the digits ranks above the digits
 * inside a word, so the first is the newest whose number starts with them: the number itself.
 */
const firstFor = (digits: string) => seededTitle(digits === '' ? 1 : Number(digits));

export async function paletteMeasures(stack: RunningStack, context: BrowserContext, plan: Plan): Promise<Measure[]> {
  const account = await signUp(stack, 'palette', 'pro');
  await seedDirectory(stack, account, 'Palette 10000', LINKS);
  await seedCalendar(stack, account, EVENTS);
  await seedPolls(stack, account, 'Poll', POLLS);
  const page = await signIn(context, account, { saved_links: LINKS, calendar_events: EVENTS, voting_posts: POLLS });
  await page.getByRole('heading', { name: "Today's Focus" }).waitFor({ timeout: 60_000 });

  // The first Ctrl+K loads the palette's code; the measures are of the opens after it.
  await page.keyboard.press('Control+k');
  await waitFor(page, `document.querySelector('[role="dialog"] [cmdk-item]')`);
  await page.keyboard.press('Escape');
  await waitFor(page, dialogClosed);

  const linkId = await page.evaluate(async () => {
    const name = (await indexedDB.databases())
      .map((db) => db.name ?? '')
      .find((db) => db.startsWith('linkboard-') && db !== 'linkboard-auth')!;
    return new Promise<string>((resolve, reject) => {
      const opening = indexedDB.open(name);
      opening.onerror = () => reject(opening.error);
      opening.onsuccess = () => {
        const all = opening.result.transaction('saved_links').objectStore('saved_links').getAll();
        all.onerror = () => reject(all.error);
        all.onsuccess = () => {
          resolve((all.result as { id: string; title: string }[]).find((link) => link.title === 'Link number 1')!.id);
          opening.result.close();
        };
      };
    });
  });

  const opened: number[] = [];
  const kept: number[] = [];
  const reread: number[] = [];
  const rename = async (title: string) => {
    await run(page, hook(`mutate('link.update', { id: ${JSON.stringify(linkId)}, title: ${JSON.stringify(title)} })`));
    await waitSynced(page, LINKS);
  };
  let newest = firstFor('');
  for (let i = 0; i < plan.warmups + plan.samples; i += 1) {
    // Unchanged since the last open: the kept index.
    await probeStart(page, 'open', { event: 'keydown', check: 'paletteShows', args: ['Actions', 'Add Link'] });
    await probeStart(page, 'kept', { event: 'keydown', check: 'paletteShows', args: ['Links', newest] });
    await page.keyboard.press('Control+k');
    const open = painted(await probeResult(page, 'open'), 'palette open');
    const withKept = painted(await probeResult(page, 'kept'), 'palette kept index');
    await page.keyboard.press('Escape');
    await waitFor(page, dialogClosed);
    // The newest link renamed while closed: the open shows the kept index, reads it again, shows the new title.
    newest = newest === firstFor('') ? `${firstFor('')} (renamed ${i})` : firstFor('');
    await rename(newest);
    await probeStart(page, 'read', { event: 'keydown', check: 'paletteShows', args: ['Links', newest] });
    await page.keyboard.press('Control+k');
    const read = painted(await probeResult(page, 'read'), 'palette index read');
    await page.keyboard.press('Escape');
    await waitFor(page, dialogClosed);
    if (i >= plan.warmups) {
      opened.push(open);
      kept.push(withKept);
      reread.push(read);
    }
  }
  if (newest !== firstFor('')) await rename(firstFor(''));

  const keys = await typing(page, plan);
  await page.keyboard.press('Escape');
  return [
    {
      name: 'palette: Ctrl+K → first results painted',
      unit: 'ms',
      samples: opened,
      bar: { p95: 100 },
      note: 'its code loaded by an earlier Ctrl+K: the actions and screens, before the index is read',
    },
    {
      name: 'palette: Ctrl+K → links painted (index kept)',
      unit: 'ms',
      samples: kept,
      note: 'nothing changed since the last open: the kept index',
    },
    {
      name: `palette: Ctrl+K → links painted (index read, ${LINKS.toLocaleString('en')} links)`,
      unit: 'ms',
      samples: reread,
      note: `a link renamed while closed: the open reads ${LINKS.toLocaleString('en')} links, ${EVENTS.toLocaleString('en')} events and ${POLLS} polls again`,
    },
    keys,
  ];
}

/** With the palette open and its index read: each keystroke to the Links group's new first result painted. */
async function typing(page: Page, plan: Plan): Promise<Measure> {
  await page.keyboard.press('Control+k');
  // The index read (the keystrokes are timed against it, not against its reading).
  await waitFor(
    page,
    `window.__probe && [...document.querySelectorAll('[role="dialog"] [cmdk-group-heading]')].some((h) => h.textContent === 'Links')`,
  );
  // And the links held, read when the browser is idle after the open (src/features/palette/held-links.ts).
  await waitFor(page, `document.querySelector('[role="dialog"] [cmdk-root][data-links="held"]')`);
  const samples: number[] = [];
  const numbers = ['7319', '8462', '5173', '9284', '6391', '4728', '3857'];
  let digits = '';
  let strokes = 0;
  for (let n = 0; samples.length < plan.samples; n += 1) {
    const number = numbers[n % numbers.length]!;
    for (const key of [...number.split(''), ...number.split('').map(() => 'Backspace')]) {
      digits = key === 'Backspace' ? digits.slice(0, -1) : digits + key;
      await probeStart(page, 'key', { event: 'keydown', check: 'paletteShows', args: ['Links', firstFor(digits)] });
      await page.keyboard.press(key);
      const result = await probeResult(page, 'key');
      if (result.timeout)
        throw new Error(`palette '${digits}': ${await shown(page)} (expected '${firstFor(digits)}' first)`);
      const ms = painted(result, `palette '${digits}'`);
      strokes += 1;
      if (strokes > plan.warmups) samples.push(ms);
    }
  }
  return {
    name: `palette: keystroke → results painted (${LINKS.toLocaleString('en')} links, ${EVENTS.toLocaleString('en')} events, ${POLLS} polls)`,
    unit: 'ms',
    samples,
    bar: { median: 16, p95: 50 },
    note: 'keydown to the paint of the Links group’s new first result (our matcher over the index, cmdk not filtering)',
  };
}

/** What the open palette's groups list (their headings and first three items), for a probe that timed out. */
async function shown(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      Array.from(document.querySelectorAll('[role="dialog"] [cmdk-group]'))
        .map((group) => {
          const heading = group.querySelector('[cmdk-group-heading]')?.textContent ?? '?';
          const items = Array.from(group.querySelectorAll('[cmdk-item]'))
            .slice(0, 3)
            .map((item) => item.firstElementChild?.textContent ?? '');
          return `${heading}: ${JSON.stringify(items)}`;
        })
        .join('; ') || 'no group shown',
  );
}
