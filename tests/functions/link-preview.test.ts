/**
 * A link's preview end to end against a fixture server: fetched through redirects, decoded in the
 * charset the header names, relative URLs resolved against the final URL; failures are reasons.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLinkPreview } from '../../supabase/functions/_shared/link-preview.ts';
import { allowKey } from '../../supabase/functions/_shared/preview-allow.ts';
import { redirect, startFixture, type Fixture, type Route } from './preview-fixture.ts';

const file = (name: string) => readFileSync(new URL(`./fixtures/pages/${name}`, import.meta.url));
const serve =
  (name: string, contentType: string): Route =>
  (_req, res) =>
    res.writeHead(200, { 'Content-Type': contentType }).end(file(name));

let site: Fixture;
let base: string;
let options: Parameters<typeof readLinkPreview>[1];
beforeAll(async () => {
  site = await startFixture({
    '/spring': redirect('/catalogue/spring?ref=mail', 301),
    '/catalogue/spring': serve('relative-image.html', 'text/html; charset=utf-8'),
    '/old': serve('windows-1252-undeclared.html', 'text/html; charset=windows-1252'),
    '/report.pdf': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF-1.7'),
  });
  base = `http://shop.test:${site.port}`;
  options = { resolve: async () => ['127.0.0.1'], allow: new Set([allowKey('127.0.0.1', site.port)]) };
});
afterAll(() => site.close());

describe('a link preview', () => {
  it('resolves the page’s relative URLs against the URL after redirects', async () => {
    expect(await readLinkPreview(`${base}/spring`, options)).toEqual({
      ok: true,
      url: `${base}/catalogue/spring?ref=mail`,
      metadata: {
        title: 'Spring catalogue',
        description: null,
        siteName: null,
        image: `${base}/static/img/cover.jpg?w=1200&h=630`,
        icon: `${base}/static/favicon-96.png`,
      },
    });
  });

  it('decodes the page in the charset its header names', async () => {
    const result = await readLinkPreview(`${base}/old`, options);
    expect(result.ok && result.metadata.title).toBe('Café crème ’s €5 — Menú');
  });

  it('is a reason, not metadata, for what is no page', async () => {
    expect(await readLinkPreview(`${base}/report.pdf`, options)).toEqual({ ok: false, reason: 'not_html' });
    expect(await readLinkPreview('http://169.254.169.254/', options)).toEqual({
      ok: false,
      reason: 'forbidden_address',
    });
  });
});
