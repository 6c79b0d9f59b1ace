/**
 * A saved link's preview (docs/bench.md, part `preview`; docs/product.md, Link previews): Add Link
 * with a page of a local fixture site (reached through the fetch's test-only allow list) and the
 * URL as its title; from the click on the dialog's Add Link to the card showing the page's title
 * and its preview image loaded: the push, the ask, the server's fetch and read of the page and its
 * pictures, the poke, the pull and the picture through link-image. Bar p95 ≤ 1 s.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright';
import { probeResult, probeStart } from './browser.ts';
import { painted, type Plan } from './measures.ts';
import type { Measure } from './stats.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The fixture site, listening; PREVIEW_FETCH_ALLOW must name its port before the stack reads a page. */
export async function startPreviewFixture(): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.endsWith('.png')) return res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    const n = path.slice(1);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html><head><title>Page ${n}</title><meta property="og:title" content="Preview ${n}">
<meta property="og:description" content="A page for the bench."><meta property="og:image" content="/cover-${n}.png">
<link rel="icon" sizes="64x64" href="/icon-${n}.png"></head><body></body></html>`,
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** `plan.samples` links saved in the open directory, each timed to its preview painted. */
export async function previewToUi(page: Page, site: string, plan: Plan): Promise<Measure[]> {
  const samples: number[] = [];
  const rounds = plan.warmups + plan.samples;
  for (let i = 0; i < rounds; i += 1) {
    const url = `${site}/${i}-${Date.now().toString(36)}`;
    const title = `Preview ${url.slice(site.length + 1)}`;
    await page.getByRole('button', { name: 'Add Link', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Link' });
    await dialog.getByLabel('URL').fill(url);
    await dialog.getByLabel('Title').fill(url);
    await probeStart(page, 'preview', { event: 'click', check: 'previewShown', args: [title], timeoutMs: 15_000 });
    await dialog.getByRole('button', { name: 'Add Link' }).click();
    const ms = painted(await probeResult(page, 'preview'), `preview ${i}`);
    if (i >= plan.warmups) samples.push(ms);
  }
  return [
    {
      name: 'link saved online → its preview (title, image) painted',
      unit: 'ms',
      samples,
      bar: { p95: 1000 },
      note: 'Add Link with a fixture page: push, ask, fetch and read, poke, pull, the image through link-image',
    },
  ];
}
