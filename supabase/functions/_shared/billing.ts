/**
 * Billing with the card provider (Stripe) through its official library, so production is a matter
 * of setting keys: STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and the four price ids. The local stack
 * with no provider key plays the provider itself (supabase/local/checkout.ts): it passes a test key,
 * a webhook secret made for the run, and STRIPE_API_BASE, its own address for the provider's API.
 */
import Stripe from 'stripe';
import type { FunctionEnv } from './types.ts';

export type Plan = 'pro' | 'team';
export type BillingCycle = 'monthly' | 'yearly';
export type PriceKey = `${Plan}_${BillingCycle}`;

export const PRICE_KEYS: readonly PriceKey[] = ['pro_monthly', 'pro_yearly', 'team_monthly', 'team_yearly'];

/** The price ids of the local test-mode provider (and the defaults when no price env is set). */
export const LOCAL_PRICE_IDS: Record<PriceKey, string> = {
  pro_monthly: 'price_local_pro_monthly',
  pro_yearly: 'price_local_pro_yearly',
  team_monthly: 'price_local_team_monthly',
  team_yearly: 'price_local_team_yearly',
};

/** Seconds a webhook signature stays valid (the library's default, stated). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  prices: Record<PriceKey, string>;
  /** Where the provider's API answers; undefined for the real provider. */
  apiBase?: string;
  siteUrl: string;
}

/** The billing settings of the function's environment; null when the provider is not configured. */
export function billingConfig(env: FunctionEnv): BillingConfig | null {
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) return null;
  const prices = { ...LOCAL_PRICE_IDS };
  const fromEnv: Record<PriceKey, string | undefined> = {
    pro_monthly: env.STRIPE_PRICE_PRO_MONTHLY,
    pro_yearly: env.STRIPE_PRICE_PRO_YEARLY,
    team_monthly: env.STRIPE_PRICE_TEAM_MONTHLY,
    team_yearly: env.STRIPE_PRICE_TEAM_YEARLY,
  };
  for (const key of PRICE_KEYS) if (fromEnv[key]) prices[key] = fromEnv[key];
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    prices,
    apiBase: env.STRIPE_API_BASE || undefined,
    siteUrl: (env.SITE_URL || env.SUPABASE_URL).replace(/\/+$/, ''),
  };
}

/** The library's client; with apiBase its requests go there (through the function's fetch). */
export function stripeClient(config: BillingConfig, fetchImpl: typeof fetch): Stripe {
  const base = config.apiBase?.replace(/\/+$/, '');
  const fetchFn: typeof fetch = base
    ? (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        return fetchImpl(`${base}${url.pathname}${url.search}`, init);
      }
    : fetchImpl;
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(fetchFn),
    maxNetworkRetries: 1,
    timeout: 20_000,
  });
}

export function priceKeyOf(config: BillingConfig, priceId: string | null | undefined): PriceKey | null {
  return PRICE_KEYS.find((key) => config.prices[key] === priceId) ?? null;
}

export const isPlan = (value: unknown): value is Plan => value === 'pro' || value === 'team';
export const isCycle = (value: unknown): value is BillingCycle => value === 'monthly' || value === 'yearly';

/** What public.apply_billing_event reads of a provider event. */
export interface BillingEvent {
  id: string;
  type: string;
  created: number;
  user_id: string | null;
  customer_id: string | null;
  subscription_id: string | null;
  status: string | null;
  plan: Plan | null;
  billing_cycle: BillingCycle | null;
  period_end: number | null;
  /** The subscription ends at period_end instead of renewing; null: the event does not say. */
  cancel_at_period_end: boolean | null;
  amount: number | null;
  currency: string | null;
}

const idOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'object' && value && 'id' in value ? String(value.id) : null;
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const number = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * The part of a verified event that billing acts on. A checkout session names the user (its
 * client_reference_id, set by create-checkout) and the plan it sold (its metadata); a subscription
 * names its price, mapped back to a plan and cycle through the configured price ids.
 */
export function readBillingEvent(config: BillingConfig, event: Stripe.Event): BillingEvent {
  const base: BillingEvent = {
    id: event.id,
    type: event.type,
    created: event.created,
    user_id: null,
    customer_id: null,
    subscription_id: null,
    status: null,
    plan: null,
    billing_cycle: null,
    period_end: null,
    cancel_at_period_end: null,
    amount: null,
    currency: null,
  };
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object;
    const metadata = session.metadata ?? {};
    const paid = session.mode === 'subscription' && ['paid', 'no_payment_required'].includes(session.payment_status);
    return {
      ...base,
      user_id: text(session.client_reference_id) ?? text(metadata.user_id),
      customer_id: idOf(session.customer),
      subscription_id: idOf(session.subscription),
      status: paid ? 'active' : 'incomplete',
      plan: isPlan(metadata.plan) ? metadata.plan : null,
      billing_cycle: isCycle(metadata.billing_cycle) ? metadata.billing_cycle : null,
      amount: number(session.amount_total),
      currency: text(session.currency),
    };
  }
  if (
    event.type === 'customer.subscription.created' ||
    event.type === 'customer.subscription.updated' ||
    event.type === 'customer.subscription.deleted'
  ) {
    const subscription = event.data.object;
    const item = subscription.items?.data?.[0];
    const key = priceKeyOf(config, item?.price?.id);
    const [plan, cycle] = key ? (key.split('_') as [Plan, BillingCycle]) : [null, null];
    // Cancelled in the portal, the subscription runs to its end: at the period's end
    // (cancel_at_period_end), or at the date the portal set (cancel_at, which newer portals use).
    const cancelAt = number(subscription.cancel_at);
    const cancelling = subscription.cancel_at_period_end === true || cancelAt !== null;
    return {
      ...base,
      user_id: text(subscription.metadata?.user_id),
      customer_id: idOf(subscription.customer),
      subscription_id: subscription.id,
      // A price this deployment does not sell changes nothing (the database ignores a null plan).
      status: key || event.type === 'customer.subscription.deleted' ? subscription.status : null,
      plan,
      billing_cycle: cycle,
      period_end: cancelAt ?? number(item?.current_period_end),
      cancel_at_period_end: event.type === 'customer.subscription.deleted' ? false : cancelling,
      amount: number(item?.price?.unit_amount),
      currency: text(item?.price?.currency),
    };
  }
  return base;
}
