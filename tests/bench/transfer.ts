/**
 * Importing 5,000 bookmarks (bar 3 s) and exporting 10,000 links (bar 1 s),
 * through the Profile screen's 'Import and export' section in the real app. Each is timed in
 * the page from the button's click: the import to the paint of its summary (every link written
 * and queued, in batches through mutateMany), the export to the file handed to the browser as a
 * download (made from IndexedDB on the device).
 */
import type { Page } from 'playwright';
import { IMPORT_LINKS_MAX, NEXT_IMPORT_NOTE } from '../../src/features/transfer/import-plan.ts';
import type { Plan } from './measures.ts';
import type { Measure } from './stats.ts';

/** A Chrome-shaped bookmarks file of `n` links in 5 folders, new URLs for each `round`. */
export function bookmarksFile(n: number, round: number): string {
  const folders = Array.from({ length: 5 }, (_, f) => {
    const links = Array.from({ length: n / 5 }, (_, i) => {
      const url = `https://bench.example/r${round}/f${f}/${i}`;
      return `<DT><A HREF="${url}" ADD_DATE="${1_700_000_000 + i}">Bookmark ${round}-${f}-${i}</A>`;
    }).join('\n');
    return `<DT><H3>Folder ${f}</H3>\n<DL><p>\n${links}\n</DL><p>`;
  });
  return `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n${folders.join('\n')}\n</DL><p>\n`;
}

/** Clicks the button named `button` inside `scope` and resolves when `scope` shows `done`, after the paint. */
function timedClick(page: Page, scope: string, button: string, done: string): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const root = document.querySelector(${JSON.stringify(scope)});
    const target = root && [...root.querySelectorAll('button')].find((b) => b.textContent.trim() === ${JSON.stringify(button)});
    if (!target) return reject(new Error('no button ' + ${JSON.stringify(button)}));
    const started = performance.now();
    const check = () => {
      if (!root.textContent.includes(${JSON.stringify(done)})) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
    };
    const observer = new MutationObserver(check);
    observer.observe(root, { subtree: true, childList: true, characterData: true });
    target.click();
  })`);
}

/** Import rounds of `n` bookmarks into the signed-in Pro account the page shows. */
export async function importBookmarks(page: Page, username: string, n: number, plan: Plan): Promise<Measure> {
  const samples: number[] = [];
  await page.goto(`/Profile/${username}`);
  for (let round = 0; round < plan.warmups + plan.samples; round += 1) {
    await page.getByRole('button', { name: 'Import bookmarks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import bookmarks' });
    await dialog.getByLabel('Bookmarks file').setInputFiles({
      name: `bookmarks-${round}.html`,
      mimeType: 'text/html',
      buffer: Buffer.from(bookmarksFile(n, round)),
    });
    await dialog.getByRole('button', { name: 'Import' }).waitFor();
    const ms = await timedClick(page, '[role=dialog]', 'Import', `Imported ${n.toLocaleString('en-US')} links`);
    plan.log(`import ${round + 1}: ${ms.toFixed(0)} ms`);
    if (round >= plan.warmups) samples.push(ms);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The next round starts once this one is pushed (untimed): one import, not one racing the last one's sync.
    await page
      .getByRole('status', { name: 'Sync status' })
      .filter({ hasText: /^Synced$/ })
      .waitFor({ timeout: 180_000 });
  }
  return {
    name: `import ${n.toLocaleString('en-US')} bookmarks → summary painted`,
    unit: 'ms',
    samples,
    bar: { median: 3000 },
    note: 'Profile → Import bookmarks, a 5-folder Chrome-shaped file; click on Import to the summary painted (every link written and queued); new URLs each round',
  };
}

/** Clicks `button` and resolves when the page hands a file to the browser (an <a download> clicked). */
function timedDownload(page: Page, button: string): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const target = [...document.querySelectorAll('main button')].find((b) => b.textContent.trim() === ${JSON.stringify(button)});
    if (!target) return reject(new Error('no button ' + ${JSON.stringify(button)}));
    const click = HTMLAnchorElement.prototype.click;
    const started = performance.now();
    HTMLAnchorElement.prototype.click = function () {
      if (this.hasAttribute('download')) {
        HTMLAnchorElement.prototype.click = click;
        resolve(performance.now() - started);
      }
      return click.call(this);
    };
    target.click();
  })`);
}

/** Exports of the signed-in account's links as a bookmarks file, about `links` of them. */
export async function exportLinks(page: Page, username: string, links: number, plan: Plan): Promise<Measure> {
  const samples: number[] = [];
  await page.goto(`/Profile/${username}`);
  await page.getByRole('button', { name: 'Export bookmarks (HTML)' }).waitFor();
  for (let round = 0; round < plan.warmups + plan.samples; round += 1) {
    const [download, ms] = await Promise.all([
      page.waitForEvent('download'),
      timedDownload(page, 'Export bookmarks (HTML)'),
    ]);
    await download.delete();
    plan.log(`export ${round + 1}: ${ms.toFixed(0)} ms`);
    if (round >= plan.warmups) samples.push(ms);
    // The account holds the seeded links and those the mutation measures added.
    await page.getByText(/^Exported [\d,]+ links/).waitFor();
  }
  return {
    name: `export ${links.toLocaleString('en-US')} links (bookmarks file)`,
    unit: 'ms',
    samples,
    bar: { median: 1000 },
    note: 'Profile → Export bookmarks (HTML): click to the file handed to the browser (made on the device from IndexedDB)',
  };
}

/**
 * Bad input at scale (docs/import.md, Large files): a bookmarks file of `n` links (200,000) imported
 * into an account that holds none. The import must bring IMPORT_LINKS_MAX of them and say how many
 * are left for the next one; once synced, the server holds exactly those links (each import whole,
 * none twice). The figure is the click on Import to the summary painted; the push is waited for, untimed.
 */
export async function importLargeFile(
  page: Page,
  username: string,
  n: number,
  serverLinks: () => Promise<number>,
  log: (message: string) => void,
): Promise<Measure[]> {
  const brought = IMPORT_LINKS_MAX;
  await page.goto(`/Profile/${username}`);
  await page.getByRole('button', { name: 'Import bookmarks' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import bookmarks' });
  const file = Buffer.from(bookmarksFile(n, 0));
  log(`large import: a ${(file.length / 2 ** 20).toFixed(0)} MB file of ${n.toLocaleString('en-US')} bookmarks`);
  await dialog
    .getByLabel('Bookmarks file')
    .setInputFiles({ name: 'history.html', mimeType: 'text/html', buffer: file });
  const left = NEXT_IMPORT_NOTE(n - brought);
  await dialog.getByText(left).waitFor({ timeout: 120_000 });
  await dialog.getByRole('button', { name: 'Import' }).waitFor();
  const ms = await timedClick(page, '[role=dialog]', 'Import', `Imported ${brought.toLocaleString('en-US')} links`);
  await dialog.getByText(left).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page
    .getByRole('status', { name: 'Sync status' })
    .filter({ hasText: /^Synced$/ })
    .waitFor({ timeout: 600_000 });
  const onServer = await serverLinks();
  log(`large import: summary in ${ms.toFixed(0)} ms; the server holds ${onServer.toLocaleString('en-US')} links`);
  if (onServer !== brought) throw new Error(`large import: the server holds ${onServer} links, not ${brought}`);
  return [
    {
      name: `import a file of ${n.toLocaleString('en-US')} bookmarks → summary painted (${brought.toLocaleString('en-US')} brought, the rest left for the next import)`,
      unit: 'ms',
      samples: [ms],
      note: `one sample; checked: the summary says '${left}', and once synced the server holds exactly ${brought.toLocaleString('en-US')} links`,
    },
  ];
}
