/**
 * The smoke cases of the billing functions, against the local stack's test-mode card provider:
 * create-checkout, checkout-status, billing-portal, resume-subscription, billing-webhook.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import {
  bearer,
  error,
  noCors,
  preflight,
  signedEvent,
  wrongMethod,
  type CaseContext,
  type SmokeCase,
} from './function-smoke-cases.ts';

const SIGN_IN_CHECKOUT = 'Please sign in to continue with checkout.';
const SIGN_IN_BILLING = 'Please sign in to manage billing.';
const post = (token: string | null, body?: unknown) => ({
  method: 'POST',
  headers: token ? bearer(token) : {},
  body,
});
const event = (fields: Record<string, unknown> = {}) => ({
  id: `evt_${randomUUID()}`,
  object: 'event',
  type: 'customer.created',
  created: Math.floor(Date.now() / 1000),
  data: { object: { id: `cus_${randomUUID()}`, object: 'customer' } },
  ...fields,
});

export const billingCases: SmokeCase[] = [
  // create-checkout
  {
    fn: 'create-checkout',
    title: 'opens the provider’s checkout page for a plan',
    request: (ctx) => post(ctx.fx.user.token, { plan: 'team', billingCycle: 'yearly' }),
    status: 200,
    body: { url: expect.stringMatching(/\/_checkout\/pay\/cs_/) },
  },
  {
    fn: 'create-checkout',
    title: 'refuses an unknown plan with 400',
    request: (ctx) => post(ctx.fx.user.token, { plan: 'gold', billingCycle: 'monthly' }),
    status: 400,
    body: error("plan must be 'pro' or 'team'."),
  },
  {
    fn: 'create-checkout',
    title: 'refuses a caller without a session with 401',
    request: () => post(null, { plan: 'pro', billingCycle: 'monthly' }),
    status: 401,
    body: error(SIGN_IN_CHECKOUT),
  },
  wrongMethod('create-checkout', 'GET'),
  preflight('create-checkout', 'POST'),
  // checkout-status
  {
    fn: 'checkout-status',
    title: 'says the caller’s checkout was paid',
    request: (ctx) => post(ctx.fx.payer.token, { sessionId: ctx.fx.sessionId }),
    status: 200,
    body: { status: 'complete', paymentStatus: 'paid', plan: 'pro', billingCycle: 'monthly' },
  },
  {
    fn: 'checkout-status',
    title: 'refuses a session id that is none with 400',
    request: (ctx) => post(ctx.fx.payer.token, { sessionId: 'cs_\u0000' }),
    status: 400,
    body: error('sessionId must be a checkout session id (cs_…).'),
  },
  {
    fn: 'checkout-status',
    title: 'refuses an invalid session with 401',
    request: (ctx) => post('not-a-token', { sessionId: ctx.fx.sessionId }),
    status: 401,
    body: error(SIGN_IN_CHECKOUT),
  },
  wrongMethod('checkout-status', 'GET'),
  preflight('checkout-status', 'POST'),
  // billing-portal
  {
    fn: 'billing-portal',
    title: 'opens the provider’s portal for the payer',
    request: (ctx) =>
      post(ctx.fx.payer.token, { email: ctx.fx.payer.email, returnUrl: `${ctx.stack.url}/Profile/someone` }),
    status: 200,
    body: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/_checkout\//) },
  },
  {
    fn: 'billing-portal',
    title: 'refuses an address that is no text with 400',
    request: (ctx) => post(ctx.fx.payer.token, { email: 42 }),
    status: 400,
    body: error('email must be text.'),
  },
  {
    fn: 'billing-portal',
    title: 'refuses a caller without a session with 401',
    request: () => post(null, {}),
    status: 401,
    body: error(SIGN_IN_BILLING),
  },
  wrongMethod('billing-portal', 'GET'),
  preflight('billing-portal', 'POST'),
  // resume-subscription
  {
    fn: 'resume-subscription',
    title: 'asks the provider to renew a plan set to end',
    request: async (ctx) => {
      await ctx.stack.db.query('update public.billing_customers set cancel_at_period_end = true where user_id = $1', [
        ctx.fx.payer.id,
      ]);
      return post(ctx.fx.payer.token);
    },
    status: 200,
    body: { resumed: true },
  },
  {
    fn: 'resume-subscription',
    title: 'answers 404 to a caller with no subscription',
    request: (ctx) => post(ctx.fx.user.token),
    status: 404,
    body: error('There is no subscription to resume.'),
  },
  {
    fn: 'resume-subscription',
    title: 'refuses a caller without a session with 401',
    request: () => post(null),
    status: 401,
    body: error(SIGN_IN_BILLING),
  },
  wrongMethod('resume-subscription', 'GET'),
  preflight('resume-subscription', 'POST'),
  // billing-webhook
  {
    fn: 'billing-webhook',
    title: 'records a signed provider event',
    request: (ctx: CaseContext) => signedEvent(ctx, event()),
    status: 200,
    body: { received: true, outcome: expect.any(String) },
  },
  {
    fn: 'billing-webhook',
    title: 'refuses a signed event without its creation time with 400',
    request: (ctx: CaseContext) => signedEvent(ctx, event({ created: 'yesterday' })),
    status: 400,
    body: error('The event is malformed.'),
  },
  {
    fn: 'billing-webhook',
    title: 'refuses an unsigned event with 400',
    request: () => ({ method: 'POST', body: event() }),
    status: 400,
    body: error('Missing Stripe-Signature header.'),
  },
  {
    fn: 'billing-webhook',
    title: 'refuses a forged signature with 400',
    request: () => ({ method: 'POST', headers: { 'Stripe-Signature': 't=1,v1=deadbeef' }, body: event() }),
    status: 400,
    body: error('The signature does not match this event, or it is too old.'),
  },
  wrongMethod('billing-webhook', 'GET'),
  noCors('billing-webhook'),
];
