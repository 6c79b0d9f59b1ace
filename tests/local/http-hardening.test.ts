/**
 * What the stack's HTTP layer refuses and the headers it sends:
 * forged tokens, oversized or malformed bodies, and the headers a hosted deployment sets too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonKey, jwtSecret, startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';
import { signHs256 } from '../../supabase/local/keys.ts';
import { dbKinds } from '../support/db.ts';

describe.each(dbKinds)('on %s', (kind) => {
  let stack: TestStack;
  let staticDir: string;
  beforeAll(async () => {
    staticDir = mkdtempSync(join(tmpdir(), 'lb-static-'));
    writeFileSync(
      join(staticDir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body></body></html>',
    );
    writeFileSync(join(staticDir, 'app.js.map'), '{"version":3}');
    writeFileSync(
      join(staticDir, 'sw.js'),
      'precache([{"revision":"0baccf2f","url":"index.html"},{"revision":"1","url":"a.js"}])',
    );
    stack = await startTestStack({ kind, staticDir });
  });
  afterAll(() => stack.close());

  const rpc = (fn: string, body: string, headers: Record<string, string> = {}) =>
    stack.fetch(`${URL_BASE}/rest/v1/rpc/${fn}`, {
      method: 'POST',
      headers: { apikey: anonKey, 'Content-Type': 'application/json', ...headers },
      body,
    });

  it('refuses a validly signed token whose sub names no existing user', async () => {
    const now = Math.floor(Date.now() / 1000);
    const forged = signHs256(
      { sub: randomUUID(), role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 600 },
      jwtSecret,
    );
    const answer = await rpc('get_my_profile', '{}', { Authorization: `Bearer ${forged}` });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ code: 'PGRST301' });
    const noSub = signHs256({ role: 'authenticated', iat: now, exp: now + 600 }, jwtSecret);
    expect((await rpc('get_my_profile', '{}', { Authorization: `Bearer ${noSub}` })).status).toBe(401);
    // A real user's token still works.
    const client = stack.client();
    const { data } = await client.auth.signUp({ email: uniqueEmail('real'), password: 'password1' });
    const real = await rpc('get_my_profile', '{}', { Authorization: `Bearer ${data.session!.access_token}` });
    expect(real.status).toBe(200);
    // Only the user's id as uuid::text writes it names the user: not in capitals, braces or a number.
    const id = data.user!.id;
    for (const sub of [id.toUpperCase(), `{${id}}`, id.replaceAll('-', ''), 42, "x' or true --"]) {
      const other = signHs256(
        { sub, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 600 },
        jwtSecret,
      );
      const refused = await rpc('get_my_profile', '{}', { Authorization: `Bearer ${other}` });
      expect(refused.status, String(sub)).toBe(401);
    }
    const same = signHs256(
      { sub: id, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 600 },
      jwtSecret,
    );
    expect((await rpc('get_my_profile', '{}', { Authorization: `Bearer ${same}` })).status).toBe(200);
  });

  it('answers JSON nested 5,000 deep, NUL characters and oversized bodies with 4xx', async () => {
    const deep = `{"p_username":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const nested = await rpc('username_available', deep);
    expect(nested.status).toBe(400);
    expect(await nested.json()).toMatchObject({ code: 'PGRST102' });
    const nul = await rpc('username_available', JSON.stringify({ p_username: 'ab\u0000c' }));
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ code: '22P05' });
    const nulQuery = await stack.fetch(`${URL_BASE}/rest/v1/rpc/username_available?p_username=a%00b`, {
      headers: { apikey: anonKey },
    });
    expect(nulQuery.status).toBe(400);
    const big = await rpc('username_available', JSON.stringify({ p_username: 'x'.repeat(2 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    const bigSignUp = await stack.fetch(`${URL_BASE}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: 'password1', data: { pad: 'x'.repeat(100_000) } }),
    });
    expect(bigSignUp.status).toBe(413);
    const nulSignUp = await stack.fetch(`${URL_BASE}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: 'pass\u0000word1' }),
    });
    expect(nulSignUp.status).toBe(400);
  });

  it('answers a function that raises sqlstate PGRST with the status, body and headers it chose', async () => {
    await stack.db.exec(`
      create or replace function public.test_throttled() returns void language plpgsql security definer as $$
      begin perform private.throttle_raise(42, 'Slow down.'); end $$;
      grant execute on function public.test_throttled() to anon;`);
    const answer = await rpc('test_throttled', '{}');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('42');
    expect(await answer.json()).toMatchObject({ code: 'over_request_rate_limit', message: 'Slow down.' });
  });

  it('sends the security headers on the app and the API, and the anon key in index.html', async () => {
    const page = await stack.fetch(`${URL_BASE}/Dashboard`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    // Pictures only from the app's (and the backend's) origin: a saved link's come through link-image.
    expect(csp).toMatch(/(^|; )img-src 'self' data:(;|$)/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(await page.text()).toContain(`<meta name="linkboard-anon-key" content="${anonKey}" />`);

    const api = await rpc('username_available', JSON.stringify({ p_username: 'someone' }));
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await stack.fetch(`${URL_BASE}/app.js.map`)).status).toBe(404);
    // The worker's precache revision of index.html names the key, so a new key refreshes the copy.
    const worker = await (await stack.fetch(`${URL_BASE}/sw.js`)).text();
    expect(worker).toMatch(/"revision":"0baccf2f-[0-9a-f]{12}","url":"index.html"/);
    expect(worker).toContain('{"revision":"1","url":"a.js"}');
  });

  it('serves the mailbox to loopback peers only', async () => {
    const from = (remoteAddress: string) =>
      stack.app.fetch(new Request(`${URL_BASE}/_mailbox/messages.json`), { incoming: { socket: { remoteAddress } } });
    expect((await from('127.0.0.1')).status).toBe(200);
    expect((await from('::ffff:127.0.0.1')).status).toBe(200);
    expect((await from('::1')).status).toBe(200);
    expect((await from('192.0.2.10')).status).toBe(404);
  });
});
