import type { Tier } from '../../domain/plans.ts';
import { FREE_LIMITS } from '../../domain/plans.ts';
import { LINK_WARNING_ABOVE } from './link-filters.ts';

/**
 * The Free plan's '{n}/30 links' badge. `tier` is the plan that governs the links shown (in a
 * directory, its owner's); null when unknown, which shows no badge.
 */
export function LinkLimitBadge({ tier, count }: { tier: Tier | null; count: number }) {
  if (tier !== 'free') return null;
  return (
    <span
      className="rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-700"
      data-testid="link-limit-badge"
    >
      {count}/{FREE_LIMITS.links} links
    </span>
  );
}

/**
 * The warning banner above 25 links on the Free plan (docs/product.md, Links screen; Plans and limits); `owner` false when the
 * links are another user's (a directory shared with the user), whose plan it is.
 */
export function LinkLimitWarning({ tier, count, owner = true }: { tier: Tier | null; count: number; owner?: boolean }) {
  if (tier !== 'free' || count <= LINK_WARNING_ABOVE) return null;
  return (
    <div
      role="status"
      className="mb-4 rounded-xl border border-amber-300 dark:border-amber-700 bg-amber-50 dark:bg-amber-950/40 px-4 py-3 text-sm text-amber-900 dark:text-amber-100"
    >
      {owner ? "You're using" : "This directory's owner is using"} {count}/{FREE_LIMITS.links} links on the free plan
    </div>
  );
}
