/**
 * What the preview fetch reads of an answer: within 5 s in all (a short limit here, so the slow
 * cases end quickly), at most the cap and no further (an endless body ends as too_large, not as a
 * timeout), compressed bodies decoded under the same cap, and only the content types it asked for.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowKey } from '../../supabase/functions/_shared/preview-allow.ts';
import {
  IMAGE_MAX_BYTES,
  PAGE_MAX_BYTES,
  fetchImage,
  fetchPage,
} from '../../supabase/functions/_shared/preview-fetch.ts';
import { PNG, endless, html, startFixture, type Fixture } from './preview-fixture.ts';

const PAGE = '<!doctype html><html><head><title>Café</title></head><body>Hello</body></html>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

const hungUp: Record<string, () => void> = {};
const closedOnce = (name: string) => new Promise<void>((done) => (hungUp[name] = done));

let site: Fixture;
let base: string;
let options: Parameters<typeof fetchPage>[1];

beforeAll(async () => {
  site = await startFixture({
    '/page': html(PAGE),
    '/gzip': (_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }).end(gzipSync(PAGE)),
    '/gzip-bomb': (_req, res) =>
      res
        .writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' })
        .end(gzipSync(Buffer.alloc(3 * 1024 * 1024, ' '))),
    '/endless': endless(() => hungUp.endless?.()),
    '/endless-404': endless(() => hungUp.endless404?.(), 404),
    '/declared-3mb': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': String(3 * 1024 * 1024) });
      res.write('<html>');
    },
    '/slow-headers': (_req, res) => res.on('close', () => hungUp.slowHeaders?.()),
    '/slow-body': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' }).write('<html><head>');
      res.on('close', () => hungUp.slowBody?.());
    },
    '/cut-short': (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': '1000' }).write('<html><head>');
      res.destroy();
    },
    '/json': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"title":"x"}'),
    '/pdf': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF-1.7'),
    '/xhtml': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/xhtml+xml' }).end(PAGE),
    '/missing': (_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end('<title>Not found</title>'),
    '/error': (_req, res) => res.writeHead(500, { 'Content-Type': 'application/json' }).end('{}'),
    '/icon.png': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
    '/fake.png': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PAGE),
    '/image.svg': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end(SVG),
    '/big.png': (_req, res) =>
      res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.concat([PNG, Buffer.alloc(IMAGE_MAX_BYTES)])),
  });
  base = `http://public.test:${site.port}`;
  options = { resolve: async () => ['127.0.0.1'], allow: new Set([allowKey('127.0.0.1', site.port)]) };
});
afterAll(() => site.close());

describe('the preview fetch reads', () => {
  it('a gzip body, decoded', async () => {
    const result = await fetchPage(`${base}/gzip`, options);
    expect(result.ok && new TextDecoder().decode(result.body)).toBe(PAGE);
    expect(site.requests.at(-1)!.headers['accept-encoding']).toMatch(/gzip/);
  });

  it('an XHTML page', async () => {
    expect(await fetchPage(`${base}/xhtml`, options)).toMatchObject({ ok: true, contentType: 'application/xhtml+xml' });
  });

  it('no further than the cap: an endless body is too_large, and the connection is closed', async () => {
    const closed = closedOnce('endless');
    expect(await fetchPage(`${base}/endless`, options)).toEqual({ ok: false, reason: 'too_large' });
    await closed;
  });

  it('nothing of a body declared larger than the cap', async () => {
    expect(await fetchPage(`${base}/declared-3mb`, options)).toEqual({ ok: false, reason: 'too_large' });
  });

  it('a compressed body only up to the cap once decoded', async () => {
    expect(await fetchPage(`${base}/gzip-bomb`, options)).toEqual({ ok: false, reason: 'too_large' });
    expect(PAGE_MAX_BYTES).toBe(2 * 1024 * 1024);
  });

  it('within the time limit: slow headers and a slow body time out, and the connection is closed', async () => {
    const quick = { ...options, timeoutMs: 300 };
    const headersClosed = closedOnce('slowHeaders');
    expect(await fetchPage(`${base}/slow-headers`, quick)).toEqual({ ok: false, reason: 'timeout' });
    await headersClosed;
    const bodyClosed = closedOnce('slowBody');
    expect(await fetchPage(`${base}/slow-body`, quick)).toEqual({ ok: false, reason: 'timeout' });
    await bodyClosed;
  });

  it('no page from a connection that closes before the whole body came', async () => {
    expect(await fetchPage(`${base}/cut-short`, options)).toEqual({ ok: false, reason: 'connect' });
  });

  it('a lookup within the time limit too', async () => {
    const never = () => new Promise<string[]>(() => {});
    expect(await fetchPage(`${base}/page`, { ...options, resolve: never, timeoutMs: 50 })).toEqual({
      ok: false,
      reason: 'timeout',
    });
  });
});

describe('the preview fetch takes only what it asked for', () => {
  it.each([
    ['JSON', '/json'],
    ['a PDF', '/pdf'],
    ['a PNG', '/icon.png'],
  ])('not %s as a page', async (_kind, path) => {
    expect(await fetchPage(`${base}${path}`, options)).toEqual({ ok: false, reason: 'not_html' });
  });

  it('nothing of an error page: its status is the answer, its body is not read', async () => {
    const closed = closedOnce('endless404');
    expect(await fetchPage(`${base}/endless-404`, options)).toEqual({ ok: false, reason: 'http_status', status: 404 });
    await closed;
  });

  it('an error status is no page', async () => {
    expect(await fetchPage(`${base}/missing`, options)).toEqual({ ok: false, reason: 'http_status', status: 404 });
    expect(await fetchPage(`${base}/error`, options)).toEqual({ ok: false, reason: 'http_status', status: 500 });
  });

  it('a PNG as an image', async () => {
    const result = await fetchImage(`${base}/icon.png`, options);
    expect(result).toMatchObject({ ok: true, contentType: 'image/png' });
    expect(result.ok && Buffer.from(result.body).equals(PNG)).toBe(true);
    expect(site.requests.at(-1)!.headers.accept).toMatch(/^image\//);
  });

  it.each([
    ['an HTML page', '/page'],
    ['an SVG (it may carry script)', '/image.svg'],
    ['a page served as image/png', '/fake.png'],
  ])('not %s as an image', async (_kind, path) => {
    expect(await fetchImage(`${base}${path}`, options)).toEqual({ ok: false, reason: 'not_image' });
  });

  it('no image over its cap', async () => {
    expect(await fetchImage(`${base}/big.png`, options)).toEqual({ ok: false, reason: 'too_large' });
  });
});
