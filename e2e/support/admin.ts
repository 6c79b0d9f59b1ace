/**
 * What the billing webhook does, for e2e: set a user's subscription tier with the service role
 * through the local stack's /rest/v1/rpc (design 4.7: the tier never changes from the client).
 * Uses the stack's fixed development service-role key; the local stack only.
 */
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { DEV_ANON_KEY, DEV_SERVICE_ROLE_KEY } from '../../supabase/local/keys.ts';

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

/** The user's id, from a password sign-in (the stack has no admin user lookup; none is needed). */
export function userIdOf(target: StackTarget, user: Credentials): Promise<string> {
  return withRequest(target, async (request) => {
    const response = await request.post('/auth/v1/token?grant_type=password', {
      headers: { apikey: DEV_ANON_KEY },
      data: { email: user.email, password: user.password },
    });
    if (!response.ok())
      throw new Error(`sign-in of ${user.email} failed: ${response.status()} ${await response.text()}`);
    const body = (await response.json()) as { user?: { id?: string } };
    if (!body.user?.id) throw new Error(`sign-in of ${user.email} answered no user id`);
    return body.user.id;
  });
}

/** Sets the tier as the billing webhook would; `user` is an id or the credentials to find it. */
export function setTier(target: StackTarget, user: string | Credentials, tier: Tier): Promise<void> {
  return withRequest(target, async (request) => {
    const id = typeof user === 'string' ? user : await userIdOf(request, user);
    const response = await request.post('/rest/v1/rpc/set_subscription_tier', {
      headers: { apikey: DEV_SERVICE_ROLE_KEY, Authorization: `Bearer ${DEV_SERVICE_ROLE_KEY}` },
      data: { p_user_id: id, p_tier: tier },
    });
    if (!response.ok()) throw new Error(`set_subscription_tier: ${response.status()} ${await response.text()}`);
    const set = (await response.json()) as unknown;
    if (set !== tier) throw new Error(`set_subscription_tier answered ${JSON.stringify(set)}, not ${tier}`);
  });
}
