/**
 * create-checkout: POST {plan: 'pro'|'team', billingCycle: 'monthly'|'yearly'} with the
 * user's bearer token → 200 {url}, the card provider's checkout page for that price; the browser
 * comes back to /Upgrade/{username}?checkout=success&session_id=<the session> (or =cancelled). A user the provider already
 * bills gets no second subscription: the answer is the provider's portal page confirming the plan
 * change instead. The tier itself changes only when the provider's signed event reaches
 * billing-webhook. 400 bad input, 401 no session, 409 already on that plan, 429 throttled (20 an
 * hour per user), 502 the provider failed, 503 no provider configured.
 */
import { billingCaller, hasLiveSubscription } from '../_shared/billing-account.ts';
import { stripeClient } from '../_shared/billing.ts';
import { readJson } from '../_shared/input.ts';
import { checkoutInput } from '../../../src/domain/function-inputs.ts';
import type { FunctionEnv } from '../_shared/types.ts';
import { corsHeaders, json } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';

/** Spec 8: what the client shows when checkout does not start. */
const FAILED = 'We could not start checkout. Please try again or contact support.';
const SIGN_IN = 'Please sign in to continue with checkout.';

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405, { Allow: 'POST, OPTIONS' });

  const input = await readJson(req, checkoutInput);
  if (!input.ok) return json({ error: input.error }, 400);
  const { plan, billingCycle } = input.value;
  const caller = await billingCaller(req, env, 'checkout', { signIn: SIGN_IN, failed: FAILED });
  if (!caller.ok) return json(caller.body, caller.status, caller.headers);
  const { config, account } = caller;

  const back = `${config.siteUrl}/Upgrade${account.username ? `/${encodeURIComponent(account.username)}` : ''}`;
  const price = config.prices[`${plan}_${billingCycle}`];
  const stripe = stripeClient(config, env.fetch);
  try {
    if (hasLiveSubscription(account) && account.subscription_id && account.customer_id) {
      if (account.plan === plan && account.billing_cycle === billingCycle) {
        return json({ error: 'You are already on this plan.' }, 409);
      }
      // A plan or cycle change of a live subscription: the provider's portal confirms it (prorated).
      const subscription = await stripe.subscriptions.retrieve(account.subscription_id);
      const item = subscription.items.data[0];
      if (!item) throw new Error(`subscription ${subscription.id} has no item`);
      const portal = await stripe.billingPortal.sessions.create({
        customer: account.customer_id,
        return_url: back,
        flow_data: {
          type: 'subscription_update_confirm',
          subscription_update_confirm: {
            subscription: subscription.id,
            items: [{ id: item.id, price, quantity: 1 }],
          },
          after_completion: { type: 'redirect', redirect: { return_url: `${back}?checkout=success` } },
        },
      });
      return json({ url: portal.url });
    }
    const metadata = { user_id: account.user_id, plan, billing_cycle: billingCycle };
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [{ price, quantity: 1 }],
        client_reference_id: account.user_id,
        ...(account.customer_id
          ? { customer: account.customer_id }
          : account.email
            ? { customer_email: account.email }
            : {}),
        metadata,
        subscription_data: { metadata },
        // The provider puts the session's id in; the page back asks checkout-status whether it was paid.
        success_url: `${back}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${back}?checkout=cancelled`,
      },
      // A double click within the same minute gets the same session, not a second one.
      { idempotencyKey: `checkout-${account.user_id}-${plan}-${billingCycle}-${Math.floor(Date.now() / 60_000)}` },
    );
    if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
    return json({ url: session.url });
  } catch (error) {
    console.error('[create-checkout] the provider failed:', error);
    return json({ error: FAILED }, 502);
  }
}

serveOnDeno(handler);
