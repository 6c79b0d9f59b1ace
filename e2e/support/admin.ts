/**
 * The local stack's API for e2e setup: what the billing webhook does (set a user's subscription
 * tier with the service role through /rest/v1/rpc; docs/product.md, Decisions: the tier never changes from the
 * client), a password sign-in, and a push as the user. Uses the stack's fixed development keys;
 * the local stack only.
 */
import { randomUUID } from 'node:crypto';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { e2eKeys } from './keys.ts';

const ANON_KEY = e2eKeys.anonKey;
const SERVICE_ROLE_KEY = e2eKeys.serviceRoleKey;

export type Tier = 'free' | 'pro' | 'team';

export interface Credentials {
  email: string;
  password: string;
}

/** A request context, or the base URL of a stack to open one for (disposed afterwards). */
export type StackTarget = APIRequestContext | string;

async function withRequest<T>(target: StackTarget, fn: (request: APIRequestContext) => Promise<T>): Promise<T> {
  if (typeof target !== 'string') return fn(target);
  const request = await playwrightRequest.newContext({ baseURL: target });
  try {
    return await fn(request);
  } finally {
    await request.dispose();
  }
}

/** A password sign-in through /auth/v1/token: the user's id and access token. */
export function signInApi(target: StackTarget, user: Credentials): Promise<{ id: string; accessToken: string }> {
  return withRequest(target, async (request) => {
    const response = await request.post('/auth/v1/token?grant_type=password', {
      headers: { apikey: ANON_KEY },
      data: { email: user.email, password: user.password },
    });
    if (!response.ok())
      throw new Error(`sign-in of ${user.email} failed: ${response.status()} ${await response.text()}`);
    const body = (await response.json()) as { access_token?: string; user?: { id?: string } };
    if (!body.user?.id || !body.access_token) throw new Error(`sign-in of ${user.email} answered no session`);
    return { id: body.user.id, accessToken: body.access_token };
  });
}

/** The user's id, from a password sign-in (the stack has no admin user lookup; none is needed). */
export async function userIdOf(target: StackTarget, user: Credentials): Promise<string> {
  return (await signInApi(target, user)).id;
}

/**
 * Pushes mutations as the user through sync_push, as another of their devices would, and
 * expects every one applied (seeding honest data: the server's rules and limits apply).
 */
export function pushAs(
  target: StackTarget,
  user: Credentials,
  mutations: { name: string; args: Record<string, unknown> }[],
): Promise<void> {
  return withRequest(target, async (request) => {
    const { accessToken } = await signInApi(request, user);
    const response = await request.post('/rest/v1/rpc/sync_push', {
      headers: { apikey: ANON_KEY, Authorization: `Bearer ${accessToken}` },
      data: { p_mutations: mutations.map((mutation) => ({ id: randomUUID(), ...mutation })) },
    });
    if (!response.ok()) throw new Error(`sync_push: ${response.status()} ${await response.text()}`);
    const { results } = (await response.json()) as { results: { status: string; message?: string }[] };
    const refused = results.filter((result) => result.status !== 'applied');
    if (refused.length > 0) throw new Error(`sync_push refused ${refused.length}: ${refused[0]?.message ?? ''}`);
  });
}

/** Sets the tier as the billing webhook would; `user` is an id or the credentials to find it. */
export function setTier(target: StackTarget, user: string | Credentials, tier: Tier): Promise<void> {
  return withRequest(target, async (request) => {
    const id = typeof user === 'string' ? user : await userIdOf(request, user);
    const response = await request.post('/rest/v1/rpc/set_subscription_tier', {
      headers: { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
      data: { p_user_id: id, p_tier: tier },
    });
    if (!response.ok()) throw new Error(`set_subscription_tier: ${response.status()} ${await response.text()}`);
    const set = (await response.json()) as unknown;
    if (set !== tier) throw new Error(`set_subscription_tier answered ${JSON.stringify(set)}, not ${tier}`);
  });
}

/**
 * The test-mode provider's test clock: the end of the current period of the user's subscriptions
 * (as Stripe's test clocks reach it), so the provider sends what it sends then: a subscription set
 * to cancel ends (customer.subscription.deleted), any other renews. Operator only (service role).
 */
export function endBillingPeriod(target: StackTarget, user: Credentials): Promise<void> {
  return withRequest(target, async (request) => {
    const response = await request.post('/_checkout/test-clock/advance', {
      headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
      data: { user_id: await userIdOf(request, user) },
    });
    if (!response.ok()) throw new Error(`test clock failed: ${response.status()} ${await response.text()}`);
  });
}

/**
 * Runs one round of the broken-link check now, as the stack's scheduler (or pg_cron) does, for this
 * user's links only (the suite's other Pro users have links of their own waiting).
 */
export function runLinkChecks(
  target: StackTarget,
  user: Credentials,
): Promise<{ checked: number; broken: number; changed: number }> {
  return withRequest(target, async (request) => {
    const owner = await userIdOf(request, user);
    const response = await request.post('/functions/v1/check-links', {
      headers: { Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
      data: { owner },
    });
    if (!response.ok()) throw new Error(`check-links: ${response.status()} ${await response.text()}`);
    return (await response.json()) as { checked: number; broken: number; changed: number };
  });
}
