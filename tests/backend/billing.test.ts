import { createClient } from '@supabase/supabase-js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BILLING_THROTTLED,
  CHECKOUT_FAILED,
  CHECKOUT_SIGN_IN,
  openBillingPortal,
  PORTAL_FAILED,
  PORTAL_SIGN_IN,
  startCheckout,
  type BillingClient,
} from '../../src/backend/billing.ts';

const session = { access_token: 't', user: { id: 'u1', email: 'ada@example.com' } };
const getSession = vi.fn();
/** What the functions answer, in order; each call's request is kept. */
let answers: Response[] = [];
const requests: { url: string; body: unknown; headers: Headers }[] = [];

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** supabase-js's real functions client (its error shapes), over a fetch that answers `answers`. */
function client(): BillingClient {
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), body: JSON.parse(String(init?.body)), headers: new Headers(init?.headers) });
    const next = answers.shift();
    if (!next) throw new TypeError('Failed to fetch');
    return next;
  };
  const real = createClient('http://127.0.0.1:54321', 'anon-key', {
    global: { fetch },
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no WebSocket; realtime is never opened here.
    realtime: { transport: class {} as never },
  });
  // A stand-in auth with only the getSession spy; the functions client is real.
  return { auth: { getSession } as unknown as BillingClient['auth'], functions: real.functions };
}

beforeEach(() => {
  answers = [];
  requests.length = 0;
  getSession.mockReset();
  getSession.mockResolvedValue({ data: { session }, error: null });
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('startCheckout (docs/product.md, Server calls; Error messages)', () => {
  it('posts the plan and cycle to create-checkout and answers the url', async () => {
    answers = [json({ url: 'https://checkout.example/c/1' })];
    expect(await startCheckout('team', 'yearly', client())).toEqual({ ok: true, url: 'https://checkout.example/c/1' });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe('http://127.0.0.1:54321/functions/v1/create-checkout');
    expect(requests[0]!.body).toEqual({ plan: 'team', billingCycle: 'yearly' });
  });

  it('asks to sign in, without a request, when there is no session', async () => {
    getSession.mockResolvedValue({ data: { session: null }, error: null });
    expect(await startCheckout('pro', 'monthly', client())).toEqual({ ok: false, error: CHECKOUT_SIGN_IN });
    expect(requests).toHaveLength(0);
  });

  it('asks to sign in again when the server refuses the session (401)', async () => {
    answers = [json({ error: 'Unauthorized' }, 401)];
    expect(await startCheckout('pro', 'monthly', client())).toEqual({ ok: false, error: CHECKOUT_SIGN_IN });
  });

  it.each([
    ['a 400', () => json({ error: 'Unknown plan' }, 400)],
    ['a 409 (already on that plan)', () => json({ error: 'You are already on this plan.' }, 409)],
    ['a 503 (no provider configured)', () => json({ error: 'x', reason: 'billing_not_configured' }, 503)],
    ['a 500', () => json({ error: 'boom' }, 500)],
    ['a 200 without a url', () => json({})],
    ['a url that is not a web address', () => json({ url: 'javascript:alert(1)' })],
    ['a text answer', () => new Response('ok', { status: 200 })],
  ])("answers the product's checkout error for %s", async (_name, answer) => {
    answers = [answer()];
    expect(await startCheckout('pro', 'monthly', client())).toEqual({ ok: false, error: CHECKOUT_FAILED });
  });

  it("answers the product's checkout error when the network fails, and never throws", async () => {
    expect(await startCheckout('pro', 'monthly', client())).toEqual({ ok: false, error: CHECKOUT_FAILED });
    getSession.mockRejectedValue(new Error('storage gone'));
    expect(await startCheckout('pro', 'monthly', client())).toEqual({ ok: false, error: CHECKOUT_FAILED });
  });

  it("gives a throttled answer's own message (429), else a plain one", async () => {
    answers = [json({ error: 'Too many checkouts. Try again in a minute.' }, 429, { 'Retry-After': '60' })];
    expect(await startCheckout('pro', 'monthly', client())).toEqual({
      ok: false,
      error: 'Too many checkouts. Try again in a minute.',
    });
    answers = [new Response('slow down', { status: 429 })];
    expect(await startCheckout('pro', 'monthly', client())).toEqual({ ok: false, error: BILLING_THROTTLED });
  });
});

describe('openBillingPortal (docs/product.md, Server calls; Error messages)', () => {
  it('posts the e-mail and return address to billing-portal and answers the url', async () => {
    answers = [json({ url: 'https://billing.example/p/1' })];
    const result = await openBillingPortal('ada@example.com', 'http://localhost/Profile/ada', client());
    expect(result).toEqual({ ok: true, url: 'https://billing.example/p/1' });
    expect(requests[0]!.url).toBe('http://127.0.0.1:54321/functions/v1/billing-portal');
    expect(requests[0]!.body).toEqual({ email: 'ada@example.com', returnUrl: 'http://localhost/Profile/ada' });
  });

  it("sends the session's e-mail, which the function checks, over the screen's copy", async () => {
    answers = [json({ url: 'https://billing.example/p/1' }), json({ url: 'https://billing.example/p/2' })];
    await openBillingPortal('', 'http://localhost/Profile/ada', client());
    expect(requests[0]!.body).toEqual({ email: 'ada@example.com', returnUrl: 'http://localhost/Profile/ada' });
    // The synced profile still has the address from before a change.
    await openBillingPortal('old@example.com', 'http://localhost/Profile/ada', client());
    expect(requests[1]!.body).toEqual({ email: 'ada@example.com', returnUrl: 'http://localhost/Profile/ada' });
  });

  it('asks to sign in, without a request, when there is no session', async () => {
    getSession.mockResolvedValue({ data: { session: null }, error: null });
    expect(await openBillingPortal('ada@example.com', 'http://x', client())).toEqual({
      ok: false,
      error: PORTAL_SIGN_IN,
    });
    expect(requests).toHaveLength(0);
  });

  it.each([
    ['a 404 (no subscription)', () => json({ error: 'There is no subscription to manage yet.' }, 404)],
    ['a 403 (another address)', () => json({ error: 'You can manage only your own plan.' }, 403)],
    ['a 500', () => json({ error: 'boom' }, 500)],
    ['a 200 without a url', () => json({ url: null })],
  ])("answers the product's portal error for %s", async (_name, answer) => {
    answers = [answer()];
    expect(await openBillingPortal('ada@example.com', 'http://x', client())).toEqual({
      ok: false,
      error: PORTAL_FAILED,
    });
  });
});
