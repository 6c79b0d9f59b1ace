/**
 * resume-subscription: POST with the user's bearer token → 200 {resumed: true}. A paid plan
 * cancelled in the portal runs to the end of the period paid for; until then this asks the card
 * provider to clear the subscription's cancel_at_period_end, so it renews as before. The profile
 * shows it when the provider's signed customer.subscription.updated reaches billing-webhook (the
 * only path that changes billing state). 401 no session, 404 no subscription, 409 not set to end,
 * 429 throttled (with the portal's 20 an hour), 502 the provider failed, 503 no provider configured.
 */
import { billingCaller, hasLiveSubscription } from '../_shared/billing-account.ts';
import { stripeClient } from '../_shared/billing.ts';
import type { FunctionEnv } from '../_shared/types.ts';
import { corsHeaders, json } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';

export const RESUME_FAILED = 'We could not resume your plan. Please try again later.';

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405, { Allow: 'POST, OPTIONS' });
  const caller = await billingCaller(req, env, 'portal', {
    signIn: 'Please sign in to manage billing.',
    failed: RESUME_FAILED,
  });
  if (!caller.ok) return json(caller.body, caller.status, caller.headers);
  const { config, account } = caller;
  if (!hasLiveSubscription(account) || !account.subscription_id) {
    return json({ error: 'There is no subscription to resume.' }, 404);
  }
  if (!account.cancel_at_period_end) return json({ error: 'Your plan is not set to end.' }, 409);

  try {
    const stripe = stripeClient(config, env.fetch);
    const subscription = await stripe.subscriptions.retrieve(account.subscription_id);
    // Portals cancel at the period's end (cancel_at_period_end) or, newer ones, at a date (cancel_at).
    await stripe.subscriptions.update(
      subscription.id,
      subscription.cancel_at && !subscription.cancel_at_period_end
        ? { cancel_at: '' }
        : { cancel_at_period_end: false },
    );
    return json({ resumed: true });
  } catch (error) {
    console.error('[resume-subscription] the provider failed:', error);
    return json({ error: RESUME_FAILED }, 502);
  }
}

serveOnDeno(handler);
