import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, URL_BASE, type TestStack } from './stack.ts';

let stack: TestStack;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkboard-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Linkboard</title><div id="root"></div>');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(
    join(dir, 'assets', 'big-def456.js'),
    `export const words = ${JSON.stringify('lorem ipsum '.repeat(2000))};`,
  );
  writeFileSync(join(dir, 'manifest.webmanifest'), '{}');
  stack = await startTestStack({ staticDir: dir });
});
afterAll(() => stack.close());

const get = (path: string, accept = '*/*') => stack.fetch(`${URL_BASE}${path}`, { headers: { Accept: accept } });

describe('static app serving', () => {
  it('serves index.html for client routes that accept HTML, uncached', async () => {
    for (const path of ['/', '/Links/ann/dir/42', '/Voting']) {
      const res = await get(path, 'text/html,application/xhtml+xml');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves files with their type and caching, and 404 for missing files', async () => {
    const asset = await get('/assets/app-abc123.js');
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const sw = await get('/sw.js');
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect((await get('/manifest.webmanifest')).headers.get('content-type')).toContain('manifest+json');
    expect((await get('/assets/missing.js', 'text/html')).status).toBe(404);
    expect((await get('/missing.png', 'text/html')).status).toBe(404);
    expect((await get('/some/route', 'application/json')).status).toBe(404);
    expect((await get('/../../etc/passwd', 'text/html')).status).not.toBe(500);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
  });

  it('compresses what the browser accepts, keeps hashed assets immutable, and answers HEAD', async () => {
    const gz = await stack.fetch(`${URL_BASE}/assets/big-def456.js`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toContain('Accept-Encoding');
    expect(gz.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const plain = await stack.fetch(`${URL_BASE}/assets/big-def456.js`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await plain.text()).length).toBeGreaterThan(24_000);
    // Under 1 KiB: not worth compressing.
    const small = await stack.fetch(`${URL_BASE}/assets/app-abc123.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    const head = await stack.fetch(`${URL_BASE}/assets/app-abc123.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('14');
    expect((await stack.fetch(`${URL_BASE}/assets/app-abc123.js`, { method: 'POST' })).status).toBe(405);
    // A missing file is not cached for long.
    expect((await get('/assets/missing.js')).headers.get('cache-control')).toBe('no-cache');
  });
});
