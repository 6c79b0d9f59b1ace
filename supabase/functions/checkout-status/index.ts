/**
 * checkout-status: POST {sessionId} with the user's bearer token → 200 {status, paymentStatus,
 * plan, billingCycle}, what the card provider says of the caller's own checkout session: the page
 * the provider sends the browser back to (/Upgrade/{username}?checkout=success&session_id=...)
 * states from it whether a payment was made, rather than assuming one. status is the provider's
 * 'open', 'complete' or 'expired'; paymentStatus 'paid', 'unpaid' or 'no_payment_required'. The
 * plan itself changes only through billing-webhook. 400 bad input, 401 no session, 404 no such
 * session of the caller's, 429 throttled (60 an hour), 502 the provider failed, 503 no provider.
 */
import { billingCaller } from '../_shared/billing-account.ts';
import { isCycle, isPlan, stripeClient } from '../_shared/billing.ts';
import * as v from 'valibot';
import { readJson } from '../_shared/input.ts';
import { jsonObject } from '../../../src/domain/input-schema.ts';
import type { FunctionEnv } from '../_shared/types.ts';
import { corsHeaders, json } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';

const FAILED = 'We could not check your payment. Please try again later.';
const NOT_A_SESSION = 'sessionId must be a checkout session id (cs_…).';
/** {sessionId}: a checkout session id, cs_live_… or cs_test_… (letters, digits, _ and -). */
const statusInput = jsonObject(
  { sessionId: v.pipe(v.string(NOT_A_SESSION), v.regex(/^cs_[A-Za-z0-9_-]{1,250}$/, NOT_A_SESSION)) },
  '{sessionId}',
);

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405, { Allow: 'POST, OPTIONS' });
  const input = await readJson(req, statusInput);
  if (!input.ok) return json({ error: input.error }, 400);
  const { sessionId } = input.value;
  const caller = await billingCaller(req, env, 'status', {
    signIn: 'Please sign in to continue with checkout.',
    failed: FAILED,
  });
  if (!caller.ok) return json(caller.body, caller.status, caller.headers);
  const { user, config } = caller;

  const notFound = () => json({ error: 'No such checkout.' }, 404);
  try {
    const session = await stripeClient(config, env.fetch).checkout.sessions.retrieve(sessionId);
    // Someone else's session is answered as no session at all.
    const owner = session.client_reference_id ?? session.metadata?.user_id ?? null;
    if (owner !== user.id) return notFound();
    const plan = session.metadata?.plan;
    const cycle = session.metadata?.billing_cycle;
    return json({
      status: session.status,
      paymentStatus: session.payment_status,
      plan: isPlan(plan) ? plan : null,
      billingCycle: isCycle(cycle) ? cycle : null,
    });
  } catch (error) {
    if ((error as { statusCode?: unknown }).statusCode === 404) return notFound();
    console.error('[checkout-status] the provider failed:', error);
    return json({ error: FAILED }, 502);
  }
}

serveOnDeno(handler);
