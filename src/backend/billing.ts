/**
 * The billing calls (docs/product.md, Server calls): create-checkout and billing-portal, two Edge Functions reached
 * through supabase-js (it sends the session's token), and beside them resume-subscription and
 * checkout-status. Each answers a URL to navigate to, or the
 * product's text for what went wrong (docs/product.md, Error messages); neither throws nor navigates, the caller does
 * (useBillingCall below, for the Upgrade and Profile screens).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LinkboardClient } from './page-client.ts';

export const CHECKOUT_SIGN_IN = 'Please sign in to continue with checkout.';
export const CHECKOUT_FAILED = 'We could not start checkout. Please try again or contact support.';
export const PORTAL_SIGN_IN = 'Please sign in to manage billing.';
export const PORTAL_FAILED = 'We could not open the billing portal. Please try again later.';
/** A 429 without a message of its own. */
export const BILLING_THROTTLED = 'Too many requests. Please try again later.';

export type BillingResult = { ok: true; url: string } | { ok: false; error: string };

export type BillingClient = Pick<LinkboardClient, 'auth' | 'functions'>;

interface Texts {
  signIn: string;
  failed: string;
}

/** Only a web address is followed (never a javascript: or data: URL from a confused server). */
function webUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

async function throttledText(response: Response | undefined): Promise<string> {
  try {
    const body = (await response?.clone().json()) as { error?: unknown } | undefined;
    return typeof body?.error === 'string' && body.error ? body.error : BILLING_THROTTLED;
  } catch {
    return BILLING_THROTTLED;
  }
}

type Invoked<T> = { ok: true; data: T | null; status: number } | { ok: false; error: string; status?: number };

/** Calls a billing function as the session's user; the texts of docs/product.md for no session and failures. */
async function invoke<T>(
  name: string,
  body: (sessionEmail: string | null) => Record<string, string>,
  texts: Texts,
  client: BillingClient | undefined,
): Promise<Invoked<T>> {
  try {
    const caller = client ?? (await import('./supabase.ts')).supabase;
    const { data: auth } = await caller.auth.getSession();
    // No session: the sign-in text of docs/product.md, without a request.
    if (!auth.session) return { ok: false, error: texts.signIn };
    const { data, error, response } = await caller.functions.invoke<T>(name, {
      body: body(auth.session.user?.email ?? null),
    });
    if (error) {
      const status = response?.status;
      if (status === 401) return { ok: false, error: texts.signIn, status };
      if (status === 429) return { ok: false, error: await throttledText(response), status };
      return { ok: false, error: texts.failed, status };
    }
    return { ok: true, data, status: response?.status ?? 200 };
  } catch (error) {
    console.warn(`${name} failed`, error);
    return { ok: false, error: texts.failed };
  }
}

async function call(
  name: string,
  body: (sessionEmail: string | null) => Record<string, string>,
  texts: Texts,
  client: BillingClient | undefined,
): Promise<BillingResult> {
  const answer = await invoke<{ url?: unknown }>(name, body, texts, client);
  if (!answer.ok) return { ok: false, error: answer.error };
  const url = webUrl(answer.data?.url);
  return url ? { ok: true, url } : { ok: false, error: texts.failed };
}

/**
 * Starts checkout for `plan` billed `billingCycle`: the provider's checkout page, or for a user who
 * already pays, the provider's page confirming the change.
 */
export function startCheckout(
  plan: 'pro' | 'team',
  billingCycle: 'monthly' | 'yearly',
  client?: BillingClient,
): Promise<BillingResult> {
  return call(
    'create-checkout',
    () => ({ plan, billingCycle }),
    { signIn: CHECKOUT_SIGN_IN, failed: CHECKOUT_FAILED },
    client,
  );
}

/**
 * The provider's billing portal (change, downgrade or cancel), coming back to `returnUrl`.
 * `email` is the account's address as the screen knows it; the session's own address is sent
 * when there is one, since the function accepts only the token's address (403 otherwise) and
 * the synced profile's copy can lag behind an address change.
 */
export function openBillingPortal(email: string, returnUrl: string, client?: BillingClient): Promise<BillingResult> {
  return call(
    'billing-portal',
    (sessionEmail) => ({ email: sessionEmail || email, returnUrl }),
    { signIn: PORTAL_SIGN_IN, failed: PORTAL_FAILED },
    client,
  );
}

export const RESUME_FAILED = 'We could not resume your plan. Please try again later.';

/**
 * Resumes a paid plan set to end at its period's end (resume-subscription): the provider then
 * renews it, and its event brings the profile row that says so. A plan no longer set to end
 * (resumed from another device, 409) is done too.
 */
export async function resumeSubscription(client?: BillingClient): Promise<{ ok: true } | { ok: false; error: string }> {
  const answer = await invoke<{ resumed?: unknown }>(
    'resume-subscription',
    () => ({}),
    { signIn: PORTAL_SIGN_IN, failed: RESUME_FAILED },
    client,
  );
  if (answer.ok ? answer.data?.resumed === true : answer.status === 409) return { ok: true };
  return { ok: false, error: answer.ok ? RESUME_FAILED : answer.error };
}

/** What the provider says of a checkout session of the user's: paid, or not (yet). */
export interface CheckoutStatus {
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  plan: 'pro' | 'team' | null;
  billingCycle: 'monthly' | 'yearly' | null;
}

/** checkout-status for the session the provider sent the browser back with; null when unknown. */
export async function checkoutStatus(sessionId: string, client?: BillingClient): Promise<CheckoutStatus | null> {
  const answer = await invoke<Partial<CheckoutStatus>>(
    'checkout-status',
    () => ({ sessionId }),
    { signIn: CHECKOUT_SIGN_IN, failed: CHECKOUT_FAILED },
    client,
  );
  const data = answer.ok ? answer.data : null;
  if (!data || !['open', 'complete', 'expired'].includes(data.status ?? '')) return null;
  if (!['paid', 'unpaid', 'no_payment_required'].includes(data.paymentStatus ?? '')) return null;
  return {
    status: data.status!,
    paymentStatus: data.paymentStatus!,
    plan: data.plan === 'pro' || data.plan === 'team' ? data.plan : null,
    billingCycle: data.billingCycle === 'monthly' || data.billingCycle === 'yearly' ? data.billingCycle : null,
  };
}

export interface BillingCall<K extends string> {
  /** The key of the action in flight (which button); null when none. */
  busy: K | null;
  /** What the last call answered when it failed. */
  error: string | null;
  /**
   * Runs `call` unless a call is already in flight (a double click starts one checkout), then
   * follows the URL it answers (after `beforeLeave`), or shows its error.
   */
  run(key: K, call: () => Promise<BillingResult>, beforeLeave?: () => void): void;
}

/** One billing call at a time for a screen, with its busy state and error. */
export function useBillingCall<K extends string = string>(): BillingCall<K> {
  const inFlight = useRef(false);
  const [busy, setBusy] = useState<K | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // Back from the provider through the back/forward cache: the page is as it was left, busy.
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      inFlight.current = false;
      setBusy(null);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const run = useCallback((key: K, call: () => Promise<BillingResult>, beforeLeave?: () => void) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(key);
    setError(null);
    void call().then((result) => {
      if (result.ok) {
        beforeLeave?.();
        // Stays busy while the browser leaves for the provider.
        window.location.assign(result.url);
        return;
      }
      inFlight.current = false;
      setBusy(null);
      setError(result.error);
    });
  }, []);

  return { busy, error, run };
}
