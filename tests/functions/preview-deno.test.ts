/**
 * The preview fetch and reader give the same results on Deno (the hosted runtime, through its Node
 * compatibility: node:http, node:https, node:zlib, TextDecoder) as on Node, against the same
 * fixture servers: the cases of preview-cases.ts, run in this process and in a Deno child.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPreviewCases, type CaseConfig } from './preview-cases.ts';
import { PNG, endless, html, redirect, startFixture, type Fixture, type Route } from './preview-fixture.ts';
import { denoBinary, denoFlags, denoProcessEnv } from '../../supabase/tools/deno.ts';

const PAGE = '<!doctype html><html><head><title>Fixture</title></head><body>Hello</body></html>';
const pageFile = (name: string): Route => {
  const body = readFileSync(new URL(`./fixtures/pages/${name}.html`, import.meta.url));
  return (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(body);
};
const fixtures: Fixture[] = [];
let config: CaseConfig;
let rebound: Fixture;

beforeAll(async () => {
  const routes: Record<string, Route> = {
    '/page': html(PAGE),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/endless': endless(),
    '/slow-body': (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/html' }).write('<html><head>'),
    '/gzip': (_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }).end(gzipSync(PAGE)),
    '/brotli': (_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'br' }).end(brotliCompressSync(PAGE)),
    '/with-cookie': redirect('/page', 302, { 'Set-Cookie': 'sid=s3cret; Path=/' }),
    '/json': (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'),
    '/icon.png': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
    '/image.svg': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg/>'),
    ...Object.fromEntries(
      [1, 2, 3, 4, 5, 6].map((n) => [`/hops/${n}`, redirect(n === 1 ? '/page' : `/hops/${n - 1}`)]),
    ),
    ...Object.fromEntries(
      ['news-article', 'windows-1252', 'shift-jis', 'entities-cdata'].map((name) => [`/pages/${name}`, pageFile(name)]),
    ),
  };
  const site = await startFixture(routes);
  const secure = await startFixture({ '/page': html(PAGE) }, { tls: true });
  rebound = await startFixture({ '/page': html('<title>Rebound</title>') }, { host: '127.0.0.2', port: site.port });
  fixtures.push(site, secure, rebound);
  config = {
    port: site.port,
    tlsPort: secure.port,
    certPath: fileURLToPath(new URL('./fixtures/preview-test.crt', import.meta.url)),
  };
});
afterAll(async () => {
  for (const fixture of fixtures) await fixture.close();
});

describe('the preview fetch on Deno', () => {
  it('gives what it gives on Node, which is what the rules say', async () => {
    const onNode = await runPreviewCases(config);
    // Deno as CI runs it: the npm packages from node_modules, offline (supabase/tools/deno.ts).
    const { stdout } = await promisify(execFile)(
      denoBinary,
      [
        'run',
        '--quiet',
        ...denoFlags,
        '--allow-net',
        '--allow-read',
        '--allow-env',
        'tests/functions/preview-on-deno.ts',
        JSON.stringify(config),
      ],
      { timeout: 120_000, env: denoProcessEnv() },
    );
    const onDeno = JSON.parse(stdout) as Record<string, unknown>;
    expect(onDeno).toEqual(onNode);

    const forbidden = { ok: false, reason: 'forbidden_address' };
    expect(onNode).toMatchObject({
      'forbidden http://2130706433/': forbidden,
      'forbidden http://0x7f.1/': forbidden,
      'forbidden http://[::ffff:7f00:1]/': forbidden,
      'forbidden http://169.254.169.254/': forbidden,
      'forbidden http://localhost./': forbidden,
      [`forbidden http://127.0.0.1:${config.port}/`]: forbidden,
      'private answer': forbidden,
      rebinding: { ok: true, text: PAGE, asked: 1 },
      'second answer': true,
      'redirect to metadata': forbidden,
      '5 redirects': { ok: true, text: PAGE },
      '6 redirects': { ok: false, reason: 'too_many_redirects' },
      'endless body': { ok: false, reason: 'too_large' },
      'slow body': { ok: false, reason: 'timeout' },
      gzip: { ok: true, text: PAGE },
      brotli: { ok: true, text: PAGE },
      cookie: { ok: true, text: PAGE },
      'not html': { ok: false, reason: 'not_html' },
      png: true,
      svg: { ok: false, reason: 'not_image' },
      'tls, right name': true,
      'tls, wrong name': { ok: false, reason: 'connect' },
      'metadata windows-1252': { ok: true, metadata: { title: 'Café crème ’s €5 — Menú' } },
      'metadata shift-jis': { ok: true, metadata: { title: '日本語のページ ｜ テスト' } },
    });
    expect(rebound.requests).toEqual([]);
    expect(fixtures[0]!.requests.every(({ headers }) => headers.cookie === undefined)).toBe(true);
  });
});
