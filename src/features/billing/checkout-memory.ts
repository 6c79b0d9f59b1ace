/**
 * The plan and cycle being bought, kept in this tab while the browser is at the provider, so the
 * page it comes back to knows what to wait for even without the provider's answer (a plan change
 * confirmed in the provider's portal comes back without a checkout session).
 */
import type { BillingCycle, PaidTier } from '../../domain/plan-catalog.ts';

const KEY = 'linkboard-checkout-plan';

export interface RememberedCheckout {
  plan: PaidTier;
  cycle: BillingCycle | null;
}

export function rememberCheckout(plan: PaidTier, cycle: BillingCycle): void {
  try {
    sessionStorage.setItem(KEY, `${plan}:${cycle}`);
  } catch {
    // No storage: the page then waits for any change of plan.
  }
}

export function readCheckout(): RememberedCheckout | null {
  try {
    const [plan, cycle] = (sessionStorage.getItem(KEY) ?? '').split(':');
    if (plan !== 'pro' && plan !== 'team') return null;
    return { plan, cycle: cycle === 'monthly' || cycle === 'yearly' ? cycle : null };
  } catch {
    return null;
  }
}

export function forgetCheckout(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
