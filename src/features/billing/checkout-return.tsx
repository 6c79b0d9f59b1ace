/**
 * The provider sends the browser back to /Upgrade/{username}?checkout=success&session_id=... (a
 * plan change confirmed in its portal: ?checkout=success alone) or ?checkout=cancelled. The page
 * says only what is known: it asks the server whether the checkout session was paid
 * (checkout-status), and says 'Waiting for the payment to be confirmed…' until the synced profile
 * row has the plan bought (only the billing webhook changes it), then that the plan is active. A
 * session the provider says is unpaid and open or expired is said to be unpaid; after a bounded
 * wait the page says the payment is not confirmed yet and what to do.
 */
import { useContext, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { checkoutStatus, type CheckoutStatus } from '../../backend/billing.ts';
import { planOffer, type BillingCycle, type PaidTier } from '../../domain/plan-catalog.ts';
import type { Tier } from '../../domain/plans.ts';
import { forgetCheckout, readCheckout } from './checkout-memory.ts';
import { RequestSyncSlot } from './request-sync-slot.ts';

export const CHECKOUT_WAITING = 'Waiting for the payment to be confirmed…';
export const CHECKOUT_CANCELLED = 'Checkout cancelled. You have not been charged.';
export const CHECKOUT_UNPAID = 'No payment was made. Your plan has not changed.';
export const CHECKOUT_NOT_CONFIRMED =
  'The payment has not been confirmed to Linkboard yet. If you paid, your plan changes as soon as the ' +
  'confirmation arrives: check your Profile later, and contact support if it has not changed within a day.';
export const checkoutActive = (tier: Tier) => `Payment confirmed. Your ${planOffer(tier).name} plan is active.`;

/** How long the page waits for the plan before saying it is not confirmed yet. */
export const CONFIRM_TIMEOUT_MS = 60_000;
/** How often the page asks for a pull while it waits. */
export const SYNC_RETRY_MS = 5_000;

export type CheckoutReturn =
  | { outcome: 'success'; sessionId: string | null; plan: PaidTier | null; cycle: BillingCycle | null }
  | { outcome: 'cancelled' }
  | null;

/** Reads `?checkout=` (and the session id) once, then removes them from the address (replace). */
export function useCheckoutReturn(): CheckoutReturn {
  const [params, setParams] = useSearchParams();
  const [value] = useState<CheckoutReturn>(() => {
    const outcome = params.get('checkout');
    if (outcome === 'cancelled') return { outcome };
    if (outcome !== 'success') return null;
    const remembered = readCheckout();
    const sessionId = params.get('session_id');
    return {
      outcome,
      sessionId: sessionId && /^cs_[A-Za-z0-9_-]{1,250}$/.test(sessionId) ? sessionId : null,
      plan: remembered?.plan ?? null,
      cycle: remembered?.cycle ?? null,
    };
  });
  useEffect(() => {
    if (!params.has('checkout') && !params.has('session_id')) return;
    forgetCheckout();
    const next = new URLSearchParams(params);
    next.delete('checkout');
    next.delete('session_id');
    setParams(next, { replace: true });
  }, [params, setParams]);
  return value;
}

/** What the server says of the session: undefined while asking, null when it could not say. */
function useServerStatus(sessionId: string | null): CheckoutStatus | null | undefined {
  const [status, setStatus] = useState<CheckoutStatus | null | undefined>(sessionId ? undefined : null);
  useEffect(() => {
    if (!sessionId) return;
    let live = true;
    void checkoutStatus(sessionId).then((answer) => live && setStatus(answer));
    return () => {
      live = false;
    };
  }, [sessionId]);
  return status;
}

export interface CheckoutNoticeProps {
  ret: CheckoutReturn;
  tier: Tier;
  /** The cycle the synced profile row says the user is billed. */
  cycle: BillingCycle | null;
  /** The profile row has been read. */
  loaded: boolean;
  /** The wait before 'not confirmed yet' (tests pass their own). */
  timeoutMs?: number;
}

export function CheckoutNotice({ ret, tier, cycle, loaded, timeoutMs = CONFIRM_TIMEOUT_MS }: CheckoutNoticeProps) {
  const requestSync = useContext(RequestSyncSlot);
  const success = ret?.outcome === 'success' ? ret : null;
  const server = useServerStatus(success?.sessionId ?? null);
  const [start, setStart] = useState<Tier | null>(null);
  if (loaded && start === null) setStart(tier);
  const [timedOut, setTimedOut] = useState(false);

  const unpaid = !!server && server.paymentStatus === 'unpaid' && server.status !== 'complete';
  const plan = server?.plan ?? success?.plan ?? null;
  const wantedCycle = server?.billingCycle ?? success?.cycle ?? null;
  const arrived =
    !!success &&
    !unpaid &&
    (plan ? tier === plan && (wantedCycle === null || cycle === wantedCycle) : start !== null && tier !== start);
  const waiting = !!success && !unpaid && !arrived;

  useEffect(() => {
    if (!waiting || timedOut) return;
    const timer = setTimeout(() => setTimedOut(true), timeoutMs);
    return () => clearTimeout(timer);
  }, [waiting, timedOut, timeoutMs]);

  useEffect(() => {
    if (!waiting || timedOut || !requestSync) return;
    requestSync();
    const timer = setInterval(requestSync, SYNC_RETRY_MS);
    return () => clearInterval(timer);
  }, [waiting, timedOut, requestSync]);

  if (!ret) return null;
  const [tone, text] =
    ret.outcome === 'cancelled'
      ? ['border-slate-300 bg-slate-50 text-slate-900', CHECKOUT_CANCELLED]
      : unpaid
        ? [
            'border-amber-300 dark:border-amber-700 bg-amber-50 dark:bg-amber-950/40 text-amber-900 dark:text-amber-100',
            CHECKOUT_UNPAID,
          ]
        : arrived
          ? [
              'border-emerald-300 dark:border-emerald-700 bg-emerald-50 dark:bg-emerald-950/40 text-emerald-900 dark:text-emerald-100',
              checkoutActive(tier),
            ]
          : timedOut
            ? [
                'border-amber-300 dark:border-amber-700 bg-amber-50 dark:bg-amber-950/40 text-amber-900 dark:text-amber-100',
                CHECKOUT_NOT_CONFIRMED,
              ]
            : ['border-slate-300 bg-slate-50 text-slate-900', CHECKOUT_WAITING];
  return (
    <p role="status" className={`mb-6 rounded-xl border px-4 py-3 text-sm ${tone}`}>
      {text}
    </p>
  );
}
