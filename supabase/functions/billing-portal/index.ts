/**
 * billing-portal (spec 7.1): POST {email, returnUrl} with the user's bearer token → 200 {url}, the
 * card provider's portal for the caller's own customer (switch plan or cycle, cancel at the end of
 * the period paid for, renew). The email must be the caller's own address (it never picks whose
 * portal opens: the token does), and returnUrl must be on the app's site (anything else falls back to the profile page, so the
 * function is no open redirect). 400 bad input, 401 no session, 403 another address, 404 no
 * subscription to manage, 429 throttled, 502 the provider failed, 503 no provider configured.
 */
import { billingAccount } from '../_shared/billing-account.ts';
import { billingConfig, stripeClient } from '../_shared/billing.ts';
import * as v from 'valibot';
import { readJson } from '../_shared/input.ts';
import { jsonObject, text } from '../../../src/domain/input-schema.ts';
import { sessionUser } from '../_shared/session.ts';
import type { FunctionEnv } from '../_shared/types.ts';
import { corsHeaders, json } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';

/** Spec 8: what the client shows when the portal does not open. */
const FAILED = 'We could not open the billing portal. Please try again later.';

/** {email?, returnUrl?}: the caller's own address, and a page of the app to come back to. */
const portalInput = jsonObject(
  {
    email: v.optional(text('email', { max: 255 })),
    returnUrl: v.optional(text('returnUrl', { label: 'return address', max: 2000 })),
  },
  '{email, returnUrl}',
);

/** returnUrl when it is a page of the app's site; otherwise the profile page. */
function returnUrlOn(site: string, value: string | undefined, username: string | null): string {
  const fallback = `${site}/Profile${username ? `/${encodeURIComponent(username)}` : ''}`;
  if (value === undefined) return fallback;
  try {
    const url = new URL(value, site);
    return url.origin === new URL(site).origin ? url.href : fallback;
  } catch {
    return fallback;
  }
}

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405, { Allow: 'POST, OPTIONS' });

  const parsed = await readJson(req, portalInput);
  if (!parsed.ok) return json({ error: parsed.error }, 400);
  const input = parsed.value;
  const user = await sessionUser(req, env);
  if (!user || user === 'invalid') return json({ error: 'Please sign in to manage billing.' }, 401);
  if (input.email !== undefined && input.email.trim().toLowerCase() !== (user.email ?? '').toLowerCase()) {
    return json({ error: 'You can manage only your own plan.' }, 403);
  }

  const config = billingConfig(env);
  if (!config) return json({ error: FAILED, reason: 'billing_not_configured' }, 503);
  const answer = await billingAccount(env, user.id, 'portal', FAILED);
  if (!answer.ok) return json(answer.body, answer.status, answer.headers);
  const account = answer.account;
  if (!account.customer_id) return json({ error: 'There is no subscription to manage yet.' }, 404);

  try {
    const portal = await stripeClient(config, env.fetch).billingPortal.sessions.create({
      customer: account.customer_id,
      return_url: returnUrlOn(config.siteUrl, input.returnUrl, account.username),
    });
    return json({ url: portal.url });
  } catch (error) {
    console.error('[billing-portal] the provider failed:', error);
    return json({ error: FAILED }, 502);
  }
}

serveOnDeno(handler);
