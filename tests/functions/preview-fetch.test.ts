/**
 * The preview fetch against fixture servers on loopback, reached through its test-only allow list:
 * the connection goes to the address checked (never to a second answer of the resolver), each
 * redirect is checked again and counted, TLS verifies the host name, and nothing identifying is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowKey } from '../../supabase/functions/_shared/preview-allow.ts';
import { PREVIEW_USER_AGENT, fetchPage } from '../../supabase/functions/_shared/preview-fetch.ts';
import { TEST_CERT, html, redirect, startFixture, type Fixture } from './preview-fixture.ts';

const PAGE = '<!doctype html><html><head><title>Fixture</title></head><body>Hello</body></html>';
const text = (body: Uint8Array) => new TextDecoder().decode(body);

let site: Fixture;
let base: string;
let options: Parameters<typeof fetchPage>[1];

beforeAll(async () => {
  site = await startFixture({
    '/': html(PAGE),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/to-localhost': (req, res) => res.writeHead(302, { Location: `http://localhost:${req.socket.localPort}/` }).end(),
    '/to-private-name': redirect('http://intranet.example/'),
    '/loop': redirect('/loop'),
    '/with-cookie': redirect('/echo', 302, { 'Set-Cookie': 'sid=s3cret; Path=/; HttpOnly' }),
    '/echo': html(PAGE, { 'Set-Cookie': 'again=1' }),
    '/moved-relative': redirect('../', 301),
    '/no-location': (_req, res) => res.writeHead(302).end(),
    ...Object.fromEntries(
      [1, 2, 3, 4, 5, 6].map((n) => [`/hops/${n}`, redirect(n === 1 ? '/' : `/hops/${n - 1}`, n % 2 ? 301 : 307)]),
    ),
  });
  base = `http://public.test:${site.port}`;
  options = {
    resolve: async (name) => (name === 'public.test' ? ['127.0.0.1'] : ['10.0.0.8']),
    allow: new Set([allowKey('127.0.0.1', site.port)]),
  };
});
afterAll(() => site.close());

describe('the preview fetch', () => {
  it('fetches a page, with a plain user agent, asking for HTML', async () => {
    const result = await fetchPage(`${base}/`, options);
    expect(result).toMatchObject({ ok: true, url: `${base}/`, contentType: 'text/html', charset: 'utf-8' });
    expect(result.ok && text(result.body)).toBe(PAGE);
    const headers = site.requests.at(-1)!.headers;
    expect(headers['user-agent']).toBe(PREVIEW_USER_AGENT);
    expect(headers.accept).toMatch(/^text\/html,/);
    expect(headers.host).toBe(`public.test:${site.port}`);
  });

  it('refuses a redirect to the metadata address without following it', async () => {
    const before = site.requests.length;
    expect(await fetchPage(`${base}/to-metadata`, options)).toEqual({ ok: false, reason: 'forbidden_address' });
    expect(site.requests.length).toBe(before + 1);
  });

  it('refuses a redirect to a name that resolves privately', async () => {
    expect(await fetchPage(`${base}/to-private-name`, options)).toEqual({ ok: false, reason: 'forbidden_address' });
  });

  it('refuses localhost, even on the allowed port, and a redirect to it', async () => {
    expect(await fetchPage(`http://localhost:${site.port}/`, options)).toEqual({
      ok: false,
      reason: 'forbidden_address',
    });
    const before = site.requests.length;
    expect(await fetchPage(`${base}/to-localhost`, options)).toEqual({ ok: false, reason: 'forbidden_address' });
    expect(site.requests.length).toBe(before + 1);
  });

  it('follows 5 redirects, each a new request, and refuses the 6th', async () => {
    const before = site.requests.length;
    const five = await fetchPage(`${base}/hops/5`, options);
    expect(five).toMatchObject({ ok: true, url: `${base}/` });
    expect(site.requests.slice(before).map((r) => r.path)).toEqual([
      '/hops/5',
      '/hops/4',
      '/hops/3',
      '/hops/2',
      '/hops/1',
      '/',
    ]);
    expect(await fetchPage(`${base}/hops/6`, options)).toEqual({ ok: false, reason: 'too_many_redirects' });
    expect(await fetchPage(`${base}/loop`, options)).toEqual({ ok: false, reason: 'too_many_redirects' });
  });

  it('resolves a relative Location against the current URL; a redirect without one is an error', async () => {
    expect(await fetchPage(`${base}/moved-relative`, options)).toMatchObject({ ok: true, url: `${base}/` });
    expect(await fetchPage(`${base}/no-location`, options)).toEqual({ ok: false, reason: 'http_status', status: 302 });
  });

  it('sends no cookie, even after a Set-Cookie on a redirect, and no credentials', async () => {
    const before = site.requests.length;
    expect(await fetchPage(`${base}/with-cookie`, options)).toMatchObject({ ok: true, url: `${base}/echo` });
    await fetchPage(`${base}/echo`, options);
    const seen = site.requests.slice(before);
    expect(seen.map((r) => r.path)).toEqual(['/with-cookie', '/echo', '/echo']);
    for (const { headers } of seen) {
      expect(headers.cookie).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
    }
  });
});

describe('the connection goes to the address checked', () => {
  it('never to a second, different answer of the resolver (DNS rebinding)', async () => {
    // The rebinding resolver's second answer is 127.0.0.2, where another server waits on the same port.
    const rebound = await startFixture({ '/': html('<title>Rebound</title>') }, { host: '127.0.0.2', port: site.port });
    try {
      const answers = [['127.0.0.1'], ['127.0.0.2']];
      let asked = 0;
      const resolve = async () => answers[Math.min(asked++, 1)]!;
      const result = await fetchPage(`http://rebind.test:${site.port}/`, { ...options, resolve });
      expect(result.ok && text(result.body)).toBe(PAGE);
      expect(asked).toBe(1);
      expect(rebound.requests).toEqual([]);
      expect(site.requests.at(-1)!.headers.host).toBe(`rebind.test:${site.port}`);
    } finally {
      await rebound.close();
    }
  });

  it('refuses a name with one allowed and one private answer, and connects to neither', async () => {
    const before = site.requests.length;
    const resolve = async () => ['127.0.0.1', '10.0.0.7'];
    expect(await fetchPage(`${base}/`, { ...options, resolve })).toEqual({ ok: false, reason: 'forbidden_address' });
    expect(site.requests.length).toBe(before);
  });

  it('tries each checked answer in turn, without asking again', async () => {
    // Nothing listens on 127.0.0.3; the second answer is the fixture.
    const allow = new Set([allowKey('127.0.0.3', site.port), allowKey('127.0.0.1', site.port)]);
    let asked = 0;
    const resolve = async () => (asked++, ['127.0.0.3', '127.0.0.1']);
    const result = await fetchPage(`http://two.test:${site.port}/`, { allow, resolve });
    expect(result.ok && text(result.body)).toBe(PAGE);
    expect(asked).toBe(1);
  });

  it('reaches the fixture only through the allow list', async () => {
    expect(await fetchPage(`${base}/`, { resolve: options!.resolve })).toEqual({
      ok: false,
      reason: 'forbidden_address',
    });
  });
});

describe('TLS to a pinned address', () => {
  let secure: Fixture;
  let tls: Parameters<typeof fetchPage>[1];
  beforeAll(async () => {
    secure = await startFixture({ '/': html(PAGE) }, { tls: true });
    tls = { resolve: async () => ['127.0.0.1'], allow: new Set([allowKey('127.0.0.1', secure.port)]), ca: TEST_CERT };
  });
  afterAll(() => secure.close());

  it('sends the host name and verifies the certificate against it', async () => {
    const result = await fetchPage(`https://preview.test:${secure.port}/`, tls);
    expect(result.ok && text(result.body)).toBe(PAGE);
    expect(await fetchPage(`https://other.test:${secure.port}/`, tls)).toEqual({ ok: false, reason: 'connect' });
    expect(secure.requests).toHaveLength(1);
  });
});
