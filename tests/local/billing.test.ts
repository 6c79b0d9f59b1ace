/**
 * Checkout, portal and the signed webhook, through the real local stack, the real
 * supabase-js client and Stripe's own library (in the functions and here, to sign events). The
 * test-mode provider at /_checkout plays the card provider exactly as the functions call it.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PRICE_IDS } from '../../supabase/functions/_shared/billing.ts';
import type { Db } from '../../supabase/local/db.ts';
import { dbKinds, freshDb } from '../support/db.ts';
import { BASE, billingStack, type BillingUser } from './billing-stack.ts';

describe.each(dbKinds)('billing (%s)', (kind) => {
  let db: Db;
  let stack: ReturnType<typeof billingStack>;
  let signer: Stripe;
  beforeAll(async () => {
    db = await freshDb(kind);
    stack = billingStack(db);
    signer = new Stripe(stack.billing.secretKey);
  });
  afterAll(() => db.close());

  type User = BillingUser;
  const call: typeof fetch = (input, init) => stack.call(input, init);
  const signUp = () => stack.signUp();
  const post = (path: string, body: unknown, token?: string) => stack.post(path, body, token);
  const form = (url: string, fields: Record<string, string>) => stack.form(url, fields);
  const tierOf = (id: string) => stack.tierOf(id);
  const mailTo = (email: string) => stack.mailTo(email);
  const customerOf = (id: string) => stack.customerOf(id);
  const checkout = (user: User, plan: string, cycle: string) => stack.checkout(user, plan, cycle);
  const pay = (url: string) => stack.pay(url);

  it('refuses checkout without a session, and bad plans or cycles with 400', async () => {
    const user = await signUp();
    const anonymous = await post('/api/create-checkout', { plan: 'pro', billingCycle: 'monthly' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: 'Please sign in to continue with checkout.' });
    for (const body of [{}, { plan: 'gold', billingCycle: 'monthly' }, { plan: 'pro', billingCycle: 'weekly' }, [1]]) {
      const response = await post('/api/create-checkout', body, user.token);
      expect(response.status).toBe(400);
    }
    const notJson = await call(`${BASE}/api/create-checkout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}` },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(await tierOf(user.id)).toBe('free');
  });

  it('upgrades only after paying on the checkout page: the webhook sets the tier, one receipt is queued', async () => {
    const user = await signUp();
    const url = await checkout(user, 'pro', 'yearly');
    expect(url).toMatch(new RegExp(`^${BASE}/_checkout/pay/cs_test_`));
    // Opening the checkout changes nothing.
    const pageHtml = await (await call(url)).text();
    expect(pageHtml).toContain('Pro, billed yearly');
    expect(pageHtml).toContain('$50.00');
    expect(await tierOf(user.id)).toBe('free');

    const paid = await pay(url);
    expect(paid.headers.get('Location')).toMatch(/\/Upgrade\/buyer_[a-z0-9]+\?checkout=success&session_id=cs_test_/);
    expect(await tierOf(user.id)).toBe('pro');
    expect(await customerOf(user.id)).toMatchObject({ plan: 'pro', cycle: 'yearly' });
    const mail = await mailTo(user.email);
    expect(mail.filter((m) => m.subject === 'Your Linkboard receipt: Pro plan')).toHaveLength(1);
    expect(mail.find((m) => m.subject.startsWith('Your Linkboard receipt'))?.body).toContain('Amount paid: $50.00');

    // The page is single-use: paying again charges nothing more.
    const again = await form(url, { action: 'pay' });
    expect(again.status).toBe(303);
    expect((await mailTo(user.email)).filter((m) => m.subject.startsWith('Your Linkboard receipt'))).toHaveLength(1);

    // The new tier reaches the user's devices through sync.
    const { data } = await user.client.rpc('sync_pull', { p_cursor: null, p_limit: 100 });
    const profiles = (data as { changes: { user_profiles?: { subscription_tier: string }[] } }).changes.user_profiles;
    expect(profiles?.[0]?.subscription_tier).toBe('pro');
  });

  it('cancelling on the checkout page sends the browser back and changes nothing', async () => {
    const user = await signUp();
    const url = await checkout(user, 'team', 'monthly');
    const cancelled = await form(url, { action: 'cancel' });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('Location')).toMatch(/\?checkout=cancelled$/);
    expect(await tierOf(user.id)).toBe('free');
    expect(await customerOf(user.id)).toBeUndefined();
    expect(await mailTo(user.email)).toEqual([]);
  });

  it('never opens a second subscription: a subscribed user is sent to the portal to confirm the change', async () => {
    const user = await signUp();
    await pay(await checkout(user, 'pro', 'monthly'));
    const same = await post('/api/create-checkout', { plan: 'pro', billingCycle: 'monthly' }, user.token);
    expect(same.status).toBe(409);

    const url = await checkout(user, 'team', 'yearly');
    expect(url).toMatch(new RegExp(`^${BASE}/_checkout/portal/bps_`));
    expect(await (await call(url)).text()).toContain('Confirm your new plan');
    const confirmed = await form(url, { action: 'update', price: LOCAL_PRICE_IDS.team_yearly });
    expect(confirmed.headers.get('Location')).toMatch(/\?checkout=success$/);
    expect(await tierOf(user.id)).toBe('team');
    expect(await customerOf(user.id)).toMatchObject({ plan: 'team', cycle: 'yearly' });
    expect((await mailTo(user.email)).map((m) => m.subject)).toEqual([
      'Your Linkboard receipt: Pro plan',
      'Your Linkboard plan has changed',
    ]);
  });

  it('opens the portal only for the caller; cancelling there keeps the plan to the period end, with one mail', async () => {
    const user = await signUp();
    const returnUrl = `${BASE}/Profile/x`;
    expect((await post('/api/billing-portal', { email: user.email, returnUrl })).status).toBe(401);
    const none = await post('/api/billing-portal', { email: user.email, returnUrl }, user.token);
    expect(none.status).toBe(404);

    await pay(await checkout(user, 'pro', 'monthly'));
    const other = await post('/api/billing-portal', { email: 'someone@example.com', returnUrl }, user.token);
    expect(other.status).toBe(403);
    const opened = await post('/api/billing-portal', { email: user.email.toUpperCase(), returnUrl }, user.token);
    expect(opened.status).toBe(200);
    const { url } = (await opened.json()) as { url: string };
    expect(await (await call(url)).text()).toContain('Cancel subscription');

    const cancelled = await form(url, { action: 'cancel' });
    expect(cancelled.headers.get('Location')).toBe(returnUrl);
    expect(await tierOf(user.id)).toBe('pro');
    expect((await mailTo(user.email)).map((m) => m.subject)).toEqual([
      'Your Linkboard receipt: Pro plan',
      'Your Linkboard subscription is cancelled',
    ]);
    // The portal's return address stays on the app's site.
    const elsewhere = await post(
      '/api/billing-portal',
      { email: user.email, returnUrl: 'https://evil.example/' },
      user.token,
    );
    const portal = (await elsewhere.json()) as { url: string };
    expect(await (await call(portal.url)).text()).toContain(`href="${BASE}/Profile/`);
  });

  describe('the webhook', () => {
    const deliver = async (payload: string, header: string) =>
      call(`${BASE}/functions/v1/billing-webhook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
        body: payload,
      });
    const completed = (user: User, overrides: Record<string, unknown> = {}) =>
      JSON.stringify({
        id: `evt_${randomUUID()}`,
        object: 'event',
        type: 'checkout.session.completed',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: `cs_test_${randomUUID()}`,
            object: 'checkout.session',
            mode: 'subscription',
            payment_status: 'paid',
            client_reference_id: user.id,
            customer: `cus_${randomUUID()}`,
            subscription: `sub_${randomUUID()}`,
            metadata: { user_id: user.id, plan: 'team', billing_cycle: 'monthly' },
            amount_total: 999,
            currency: 'usd',
          },
        },
        ...overrides,
      });
    const sign = (payload: string, options: { secret?: string; timestamp?: number } = {}) =>
      signer.webhooks.generateTestHeaderStringAsync({
        payload,
        secret: options.secret ?? stack.billing.webhookSecret,
        timestamp: options.timestamp,
      });

    it('needs no user token (verify_jwt off) but refuses forged, stale and tampered bodies with 400', async () => {
      const user = await signUp();
      const events = async () =>
        (await db.query<{ n: number }>('select count(*)::int as n from public.billing_events')).rows[0]?.n;
      const before = await events();
      const payload = completed(user);
      const cases: [string, string][] = [
        [payload, await sign(payload, { secret: 'whsec_wrong' })],
        [payload, await sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 })],
        [payload.replace('"team"', '"pro"'), await sign(payload)],
        [payload, 't=1,v1=deadbeef'],
        [payload, 'garbage'],
      ];
      for (const [body, header] of cases) {
        const response = await deliver(body, header);
        expect(response.status).toBe(400);
      }
      const unsigned = await call(`${BASE}/functions/v1/billing-webhook`, { method: 'POST', body: payload });
      expect(unsigned.status).toBe(400);
      expect(await tierOf(user.id)).toBe('free');
      expect(await mailTo(user.email)).toEqual([]);
      expect(await events()).toBe(before);
    });

    it('applies a signed event once: a redelivery answers 2xx (no retries) and changes and mails nothing', async () => {
      const user = await signUp();
      const payload = completed(user);
      const first = await deliver(payload, await sign(payload));
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ received: true, outcome: 'applied' });
      expect(await tierOf(user.id)).toBe('team');
      const customer = await customerOf(user.id);
      // A later downgrade, then the old event delivered again with a fresh signature: a 2xx, so the
      // provider stops retrying, but nothing of it is applied again and no second receipt is queued.
      await db.query("select public.set_subscription_tier($1, 'free')", [user.id]);
      for (let i = 0; i < 2; i++) {
        const replay = await deliver(payload, await sign(payload));
        expect(replay.status).toBe(200);
        expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
      }
      expect(await tierOf(user.id)).toBe('free');
      expect(await customerOf(user.id)).toEqual(customer);
      expect((await mailTo(user.email)).map((m) => m.subject)).toEqual(['Your Linkboard receipt: Team plan']);
      // The same body under a wrong signature is still refused.
      expect((await deliver(payload, await sign(payload, { secret: 'whsec_wrong' }))).status).toBe(400);
    });

    it('never lets an older event undo a newer one, and ignores prices it does not sell', async () => {
      const user = await signUp();
      const t = Math.floor(Date.now() / 1000);
      const newer = completed(user, { created: t });
      expect((await deliver(newer, await sign(newer))).status).toBe(200);
      const customer = (await customerOf(user.id))?.customer as string;
      const subscription = (state: string, price: string, created: number) =>
        JSON.stringify({
          id: `evt_${randomUUID()}`,
          object: 'event',
          type: state === 'deleted' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
          created,
          data: {
            object: {
              id: `sub_${randomUUID()}`,
              object: 'subscription',
              customer,
              status: state === 'deleted' ? 'canceled' : state,
              metadata: {},
              items: { data: [{ id: 'si_1', price: { id: price, unit_amount: 499, currency: 'usd' } }] },
            },
          },
        });
      const older = subscription('deleted', LOCAL_PRICE_IDS.team_monthly, t - 60);
      expect(await (await deliver(older, await sign(older))).json()).toEqual({ received: true, outcome: 'stale' });
      expect(await tierOf(user.id)).toBe('team');
      const unknownPrice = subscription('active', 'price_somebody_else', t + 1);
      expect(await (await deliver(unknownPrice, await sign(unknownPrice))).json()).toEqual({
        received: true,
        outcome: 'ignored',
      });
      expect(await tierOf(user.id)).toBe('team');
      const unpaid = subscription('unpaid', LOCAL_PRICE_IDS.team_monthly, t + 2);
      expect(await (await deliver(unpaid, await sign(unpaid))).json()).toEqual({ received: true, outcome: 'applied' });
      expect(await tierOf(user.id)).toBe('free');
    });

    it('answers 429 with Retry-After after 30 refused calls from one address; other addresses are still heard', async () => {
      const payload = completed({ id: randomUUID(), email: 'x', username: 'x', token: '', client: null as never });
      const forged = await sign(payload, { secret: 'whsec_wrong' });
      const from = (address: string) =>
        call(`${BASE}/functions/v1/billing-webhook`, {
          method: 'POST',
          headers: { 'Stripe-Signature': forged, 'X-Forwarded-For': address },
          body: payload,
        });
      // The stack sets the client address itself; in-process requests share one, so count from here.
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) statuses.push((await from('198.51.100.7')).status);
      expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(30);
      const last = await from('198.51.100.7');
      expect(last.status).toBe(429);
      expect(Number(last.headers.get('Retry-After'))).toBeGreaterThan(0);
      // A correctly signed event is never throttled.
      const good = await sign(payload);
      const response = await call(`${BASE}/functions/v1/billing-webhook`, {
        method: 'POST',
        headers: { 'Stripe-Signature': good },
        body: payload,
      });
      expect(response.status).toBe(200);
    });

    it('refuses GET and answers a user that does not exist with 200 ignored (nothing to change)', async () => {
      expect((await call(`${BASE}/functions/v1/billing-webhook`)).status).toBe(405);
      const ghost = completed({ id: randomUUID(), email: 'x', username: 'x', token: '', client: null as never });
      const response = await deliver(ghost, await sign(ghost));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true, outcome: 'ignored' });
    });
  });

  it('keeps the test provider API closed without its secret key', async () => {
    const response = await call(`${BASE}/_checkout/v1/checkout/sessions`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_test_guess', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'mode=subscription',
    });
    expect(response.status).toBe(401);
    expect((await call(`${BASE}/_checkout/pay/cs_test_unknown`)).status).toBe(404);
  });
});
