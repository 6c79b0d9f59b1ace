/**
 * The provider sends the browser back to /Upgrade/{username}?checkout=success or =cancelled.
 * The page says what happened, asks for a sync, and shows the new plan once the synced profile
 * row has it (design 4.7: only the billing webhook changes the plan).
 */
import { useContext, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { planOffer, type PaidTier } from '../../domain/plan-catalog.ts';
import type { Tier } from '../../domain/plans.ts';
import { RequestSyncSlot } from './request-sync-slot.ts';

export const CHECKOUT_PENDING = 'Payment received. Your plan is being updated.';
export const CHECKOUT_CANCELLED = 'Checkout cancelled. You have not been charged.';

/** How often, and how many times, the page asks for a pull while the new plan has not arrived. */
export const SYNC_RETRY_MS = 5_000;
export const SYNC_TRIES = 12;

/** The plan being bought, kept in this tab while the browser is at the provider. */
const PLAN_KEY = 'linkboard-checkout-plan';

export function rememberCheckout(plan: PaidTier): void {
  try {
    sessionStorage.setItem(PLAN_KEY, plan);
  } catch {
    // No storage: the page then waits for any change of plan.
  }
}

function readCheckout(): PaidTier | null {
  try {
    const plan = sessionStorage.getItem(PLAN_KEY);
    return plan === 'pro' || plan === 'team' ? plan : null;
  } catch {
    return null;
  }
}

export type CheckoutReturn = { outcome: 'success'; plan: PaidTier | null } | { outcome: 'cancelled' } | null;

/** Reads `?checkout=` once, then removes it from the address (replace, not push). */
export function useCheckoutReturn(): CheckoutReturn {
  const [params, setParams] = useSearchParams();
  const [value] = useState<CheckoutReturn>(() => {
    const outcome = params.get('checkout');
    if (outcome === 'success') return { outcome, plan: readCheckout() };
    return outcome === 'cancelled' ? { outcome } : null;
  });
  useEffect(() => {
    if (!params.has('checkout')) return;
    try {
      sessionStorage.removeItem(PLAN_KEY);
    } catch {
      // Nothing was kept.
    }
    const next = new URLSearchParams(params);
    next.delete('checkout');
    setParams(next, { replace: true });
  }, [params, setParams]);
  return value;
}

/**
 * Whether the plan bought has arrived: the plan remembered at checkout, else any change from
 * the plan the synced row had when the page opened (`loaded`: the row has been read).
 */
function useArrived(ret: CheckoutReturn, tier: Tier, loaded: boolean): boolean {
  const [start, setStart] = useState<Tier | null>(null);
  if (loaded && start === null) setStart(tier);
  if (ret?.outcome !== 'success') return false;
  if (ret.plan) return tier === ret.plan;
  return start !== null && tier !== start;
}

export function CheckoutNotice({ ret, tier, loaded }: { ret: CheckoutReturn; tier: Tier; loaded: boolean }) {
  const requestSync = useContext(RequestSyncSlot);
  const arrived = useArrived(ret, tier, loaded);
  const waiting = ret?.outcome === 'success' && !arrived;

  useEffect(() => {
    if (!waiting || !requestSync) return;
    requestSync();
    let tries = 1;
    const timer = setInterval(() => {
      requestSync();
      if (++tries >= SYNC_TRIES) clearInterval(timer);
    }, SYNC_RETRY_MS);
    return () => clearInterval(timer);
  }, [waiting, requestSync]);

  if (!ret) return null;
  const [tone, text] =
    ret.outcome === 'cancelled'
      ? ['border-slate-300 bg-slate-50 text-slate-900', CHECKOUT_CANCELLED]
      : arrived
        ? [
            'border-emerald-300 bg-emerald-50 text-emerald-900',
            `Payment received. You are now on the ${planOffer(tier).name} plan.`,
          ]
        : [
            'border-emerald-300 bg-emerald-50 text-emerald-900',
            `${CHECKOUT_PENDING} This page shows it as soon as it arrives.`,
          ];
  return (
    <p role="status" className={`mb-6 rounded-xl border px-4 py-3 text-sm ${tone}`}>
      {text}
    </p>
  );
}
