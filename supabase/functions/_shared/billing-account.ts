/** What the checkout and portal functions read of the caller's account, through the service role. */
import { billingConfig, type BillingConfig } from './billing.ts';
import { serverClient } from './client.ts';
import { gatewayFetch, isThrottled, throttledAnswer } from './gateway.ts';
import { sessionUser, type SessionUser } from './session.ts';
import type { FunctionEnv } from './types.ts';

export interface BillingAccount {
  user_id: string;
  email: string | null;
  username: string | null;
  tier: 'free' | 'pro' | 'team';
  customer_id: string | null;
  subscription_id: string | null;
  status: string | null;
  plan: string | null;
  billing_cycle: string | null;
  /** The subscription ends when its paid period does, instead of renewing. */
  cancel_at_period_end: boolean;
}

export type BillingPurpose = 'checkout' | 'portal' | 'status';

export type AccountAnswer =
  | { ok: true; account: BillingAccount }
  | { ok: false; status: number; body: Record<string, unknown>; headers?: Record<string, string> };

/** The account of a signed-in user, with this purpose counted against its per-user throttle. */
export async function billingAccount(
  env: FunctionEnv,
  userId: string,
  purpose: BillingPurpose,
  failure: string,
): Promise<AccountAnswer> {
  const gateway = gatewayFetch(env.fetch, null);
  const service = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, gateway.fetch);
  const { data, error, status } = await service.rpc('billing_account', { p_user: userId, p_purpose: purpose });
  if (isThrottled(error, status)) {
    const throttled = throttledAnswer(error, gateway.retryAfter(), 'Too many attempts. Please try again later.');
    return { ok: false, status: 429, body: throttled.body, headers: throttled.headers };
  }
  if (error || !data) {
    console.error(`[billing] billing_account(${purpose}) failed:`, error);
    return { ok: false, status: 502, body: { error: failure } };
  }
  return { ok: true, account: data as BillingAccount };
}

/** An active subscription the provider is billing (a second checkout would charge twice). */
export const hasLiveSubscription = (account: BillingAccount): boolean =>
  account.tier !== 'free' &&
  !!account.subscription_id &&
  ['active', 'trialing', 'past_due'].includes(account.status ?? '');

export type BillingCaller =
  | { ok: true; user: SessionUser; config: BillingConfig; account: BillingAccount }
  | { ok: false; status: number; body: Record<string, unknown>; headers?: Record<string, string> };

/**
 * What every billing call needs first: the signed-in caller (401 with `signIn`), the provider's
 * configuration (503 with `failed`) and the caller's account, counted against the purpose's throttle.
 */
export async function billingCaller(
  req: Request,
  env: FunctionEnv,
  purpose: BillingPurpose,
  texts: { signIn: string; failed: string },
): Promise<BillingCaller> {
  const user = await sessionUser(req, env);
  if (!user || user === 'invalid') return { ok: false, status: 401, body: { error: texts.signIn } };
  const config = billingConfig(env);
  if (!config) return { ok: false, status: 503, body: { error: texts.failed, reason: 'billing_not_configured' } };
  const answer = await billingAccount(env, user.id, purpose, texts.failed);
  return answer.ok ? { ok: true, user, config, account: answer.account } : answer;
}
