/**
 * billing-webhook: the card provider's events, the only path that changes a subscription tier
 * (design 4, decision 7). Reached without a user's token (supabase/config.toml: verify_jwt off):
 * the provider's signature over the raw body, with the shared secret and a timestamp tolerance of
 * five minutes, is what authenticates it.
 *   - a missing, forged or stale signature, or a tampered body: 400, nothing changes (429 after 30
 *     such refusals from one address in 10 minutes);
 *   - otherwise 200 {received: true, outcome}: public.apply_billing_event records the event,
 *     updates the customer and the tier, and queues the receipt in one transaction. An event id
 *     already applied (the provider delivering it again, or a replay) is outcome 'duplicate':
 *     nothing changes and nothing is mailed, and the 2xx stops the provider's retries (it takes
 *     any other answer for a failed delivery and tries again for days).
 * A database failure answers 503, so the provider delivers the event again later.
 */
import Stripe from 'stripe';
import * as v from 'valibot';
import { serverClient } from '../_shared/client.ts';
import { clientAddress, gatewayFetch, isThrottled, throttledAnswer } from '../_shared/gateway.ts';
import { billingConfig, readBillingEvent, stripeClient, WEBHOOK_TOLERANCE_SECONDS } from '../_shared/billing.ts';
import type { FunctionEnv } from '../_shared/types.ts';
import { json } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';

const MAX_BODY = 512 * 1024;
/** What every provider event has: an id, a type and when it was created (seconds). */
const eventHead = v.object({ id: v.string(), type: v.string(), created: v.number() });
/** Web Crypto, which both Deno (hosted) and Node (the local stack) provide. */
const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** A refused call: 400, or 429 once this address has been refused 30 times in 10 minutes. */
async function refused(
  req: Request,
  env: FunctionEnv,
  message = 'The signature does not match this event, or it is too old.',
): Promise<Response> {
  const gateway = gatewayFetch(env.fetch, null);
  const service = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, gateway.fetch);
  const { error, status } = await service.rpc('billing_webhook_refused', { p_client: clientAddress(req) ?? 'unknown' });
  if (isThrottled(error, status)) {
    const throttled = throttledAnswer(error, gateway.retryAfter(), 'Too many refused events. Please try again later.');
    return json(throttled.body, 429, throttled.headers);
  }
  return json({ error: message }, 400);
}

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405, { Allow: 'POST' });
  const config = billingConfig(env);
  if (!config) return json({ error: 'Billing is not configured.' }, 503);
  const signature = req.headers.get('stripe-signature');
  if (!signature) return refused(req, env, 'Missing Stripe-Signature header.');
  const body = await req.text();
  if (body.length > MAX_BODY) return json({ error: 'The event is too large.' }, 413);

  const stripe = stripeClient(config, env.fetch);
  let event;
  try {
    event = await stripe.webhooks.constructEventAsync(
      body,
      signature,
      config.webhookSecret,
      WEBHOOK_TOLERANCE_SECONDS,
      cryptoProvider,
    );
  } catch {
    // The library's message says which check failed; the answer stays plain. Refusals are counted
    // per client address, so nobody can keep guessing signatures.
    return refused(req, env);
  }
  // The body is the provider's, signed: only the fields every event has are checked here.
  if (!v.is(eventHead, event)) return json({ error: 'The event is malformed.' }, 400);

  const service = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, env.fetch);
  let normalised;
  try {
    normalised = readBillingEvent(config, event);
  } catch {
    return json({ error: 'The event is malformed.' }, 400);
  }
  const { data, error, status } = await service.rpc('apply_billing_event', { p_event: normalised });
  if (error) {
    if (status === 400) return json({ error: error.message }, 400);
    console.error('[billing-webhook] apply_billing_event failed:', error);
    return json({ error: 'The event could not be applied now; deliver it again.' }, 503);
  }
  const outcome = (data as { outcome?: string } | null)?.outcome ?? 'applied';
  return json({ received: true, outcome });
}

serveOnDeno(handler);
