/**
 * A cancelled paid plan runs to the end of the period paid for, through the real local stack and
 * its test-mode provider (which behaves as Stripe does: the portal's cancel sets
 * cancel_at_period_end and sends customer.subscription.updated; the period's end, reached with the
 * test clock, sends customer.subscription.deleted). The profile row the devices sync says when the
 * plan ends; resume-subscription clears the cancellation. And checkout-status says whether the
 * caller's checkout was paid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { dbKinds, freshDb } from '../support/db.ts';
import { TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { BASE, billingStack, type BillingUser } from './billing-stack.ts';

interface ProfileBilling {
  subscription_tier: string;
  billing_cycle: string | null;
  plan_period_end: string | null;
  plan_cancel_at_period_end: boolean;
}

describe.each(dbKinds)('the end of a paid period (%s)', (kind) => {
  let db: Db;
  let stack: ReturnType<typeof billingStack>;
  beforeAll(async () => {
    db = await freshDb(kind);
    stack = billingStack(db);
  });
  afterAll(() => db.close());

  /** The user's profile row as their devices pull it. */
  async function pulledProfile(user: BillingUser): Promise<ProfileBilling> {
    const { data, error } = await user.client.rpc('sync_pull', { p_cursor: null, p_limit: 100 });
    if (error) throw new Error(error.message);
    const rows = (data as { changes: { user_profiles?: ProfileBilling[] } }).changes.user_profiles;
    if (!rows?.[0]) throw new Error('no profile row pulled');
    return rows[0];
  }
  const subscriptionEnd = async (user: BillingUser) => {
    const { rows } = await db.query<{ data: { items: { data: { current_period_end: number }[] } } }>(
      `select data from _checkout.objects where kind = 'subscription' and data -> 'metadata' ->> 'user_id' = $1
       order by created_at desc limit 1`,
      [user.id],
    );
    const end = rows[0]?.data.items.data[0]?.current_period_end;
    if (!end) throw new Error('no subscription');
    return new Date(end * 1000).toISOString();
  };
  const advanceClock = (user: BillingUser, key = TEST_SERVICE_ROLE_KEY) =>
    stack.call(`${BASE}/_checkout/test-clock/advance`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ user_id: user.id }),
    });
  const resume = (user: BillingUser) => stack.post('/api/resume-subscription', {}, user.token);
  const subjects = async (user: BillingUser) => (await stack.mailTo(user.email)).map((m) => m.subject);

  it('keeps a cancelled yearly plan until the provider says the period ended, and shows the end date meanwhile', async () => {
    const user = await stack.signUp();
    await stack.pay(await stack.checkout(user, 'pro', 'yearly'));
    const end = await subscriptionEnd(user);
    expect(Date.parse(end) - Date.now()).toBeGreaterThan(364 * 86_400_000);
    expect(await pulledProfile(user)).toMatchObject({
      subscription_tier: 'pro',
      billing_cycle: 'yearly',
      plan_cancel_at_period_end: false,
    });
    expect(Date.parse((await pulledProfile(user)).plan_period_end ?? '')).toBe(Date.parse(end));

    // Cancel in the portal: the plan stays Pro to the end of the year paid for.
    const portal = await stack.portal(user);
    expect(await (await stack.call(portal)).text()).toContain('Your plan stays until the end of the period you paid');
    expect((await stack.form(portal, { action: 'cancel' })).status).toBe(303);
    expect(await stack.tierOf(user.id)).toBe('pro');
    const cancelling = await pulledProfile(user);
    expect(cancelling).toMatchObject({ subscription_tier: 'pro', billing_cycle: 'yearly' });
    expect(cancelling.plan_cancel_at_period_end).toBe(true);
    expect(Date.parse(cancelling.plan_period_end ?? '')).toBe(Date.parse(end));
    const mail = await stack.mailTo(user.email);
    expect(mail.map((m) => m.subject)).toEqual([
      'Your Linkboard receipt: Pro plan',
      'Your Linkboard subscription is cancelled',
    ]);
    const day = new Date(end).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
    expect(mail[1]?.body).toContain(`Your Pro plan stays active until ${day}`);
    // The portal now offers to renew instead.
    expect(await (await stack.call(portal)).text()).toContain('Renew plan');

    // The period ends (the test clock): the provider's customer.subscription.deleted moves the tier.
    const advanced = await advanceClock(user);
    expect(advanced.status).toBe(200);
    expect(((await advanced.json()) as { subscriptions: { status: string }[] }).subscriptions).toEqual([
      expect.objectContaining({ status: 'canceled' }),
    ]);
    expect(await stack.tierOf(user.id)).toBe('free');
    expect(await pulledProfile(user)).toMatchObject({
      subscription_tier: 'free',
      billing_cycle: null,
      plan_period_end: null,
      plan_cancel_at_period_end: false,
    });
    expect(await subjects(user)).toEqual([
      'Your Linkboard receipt: Pro plan',
      'Your Linkboard subscription is cancelled',
      'Your Linkboard plan is now Free',
    ]);
  });

  it('resumes a cancelled plan before its end: it renews again, and one mail says so', async () => {
    const user = await stack.signUp();
    await stack.pay(await stack.checkout(user, 'team', 'monthly'));
    expect((await resume(user)).status).toBe(409);
    await stack.form(await stack.portal(user), { action: 'cancel' });
    expect((await pulledProfile(user)).plan_cancel_at_period_end).toBe(true);

    expect((await stack.post('/api/resume-subscription', {})).status).toBe(401);
    const resumed = await resume(user);
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toEqual({ resumed: true });
    expect(await pulledProfile(user)).toMatchObject({ subscription_tier: 'team', plan_cancel_at_period_end: false });
    expect((await resume(user)).status).toBe(409);
    expect(await subjects(user)).toEqual([
      'Your Linkboard receipt: Team plan',
      'Your Linkboard subscription is cancelled',
      'Your Linkboard subscription is resumed',
    ]);

    // Not cancelled, the period's end renews it for another month: the tier stays.
    const before = Date.parse((await pulledProfile(user)).plan_period_end ?? '');
    expect((await advanceClock(user)).status).toBe(200);
    const renewed = await pulledProfile(user);
    expect(renewed.subscription_tier).toBe('team');
    expect(Date.parse(renewed.plan_period_end ?? '')).toBeGreaterThan(before + 27 * 86_400_000);
  });

  it('opens the test clock only to the service-role key', async () => {
    const user = await stack.signUp();
    await stack.pay(await stack.checkout(user, 'pro', 'monthly'));
    expect((await advanceClock(user, user.token)).status).toBe(401);
    expect((await advanceClock(user, 'sk_test_guess')).status).toBe(401);
    expect(await stack.tierOf(user.id)).toBe('pro');
  });

  it('checkout-status says whether the caller’s own checkout was paid', async () => {
    const user = await stack.signUp();
    const other = await stack.signUp();
    const url = await stack.checkout(user, 'pro', 'yearly');
    const sessionId = /cs_test_[A-Za-z0-9_-]+/.exec(url)?.[0] ?? '';
    const status = (who: BillingUser, id: unknown = sessionId) =>
      stack.post('/api/checkout-status', { sessionId: id }, who.token);

    const open = await status(user);
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ status: 'open', paymentStatus: 'unpaid', plan: 'pro', billingCycle: 'yearly' });

    const paid = await stack.pay(url);
    expect(paid.headers.get('Location')).toBe(
      `${BASE}/Upgrade/${user.username}?checkout=success&session_id=${sessionId}`,
    );
    expect(await (await status(user)).json()).toEqual({
      status: 'complete',
      paymentStatus: 'paid',
      plan: 'pro',
      billingCycle: 'yearly',
    });
    // Another user's session, an unknown one and a malformed id tell nothing.
    expect((await status(other)).status).toBe(404);
    expect((await status(user, 'cs_test_unknown')).status).toBe(404);
    for (const bad of ['', 'cs_\u0000', 'cs_\ud800', 42, null, `cs_${'a'.repeat(300)}`]) {
      expect((await status(user, bad)).status).toBe(400);
    }
    expect((await stack.post('/api/checkout-status', { sessionId })).status).toBe(401);
  });
});
