/** What each plan card offers the user, by the plan they are on (docs/product.md, Profile; Upgrade). */
import type { PaidTier } from '../../domain/plan-catalog.ts';
import type { Tier } from '../../domain/plans.ts';

export const MANAGE_PLAN = 'Manage or Downgrade Plan';

export type CardAction =
  /** The user's own plan: marked, its button disabled. */
  | { kind: 'current'; label: 'Current plan' }
  /** A plan above the user's: checkout (for a paying user the provider confirms the change). */
  | { kind: 'checkout'; label: string; plan: PaidTier }
  /** A plan below the user's: the billing portal changes or cancels the subscription. */
  | { kind: 'portal'; label: typeof MANAGE_PLAN };

const rank: Record<Tier, number> = { free: 0, pro: 1, team: 2 };

export function cardAction(current: Tier, card: Tier): CardAction {
  if (card === current) return { kind: 'current', label: 'Current plan' };
  if (card === 'free' || rank[card] < rank[current]) return { kind: 'portal', label: MANAGE_PLAN };
  return { kind: 'checkout', label: card === 'pro' ? 'Upgrade to Pro' : 'Upgrade to Team', plan: card };
}
