import type { Tier } from '../../domain/plans.ts';
import { FREE_LIMITS } from '../../domain/plans.ts';
import { LINK_WARNING_ABOVE } from './link-filters.ts';

/** The Free plan's '{n}/30 links' badge. */
export function LinkLimitBadge({ tier, count }: { tier: Tier; count: number }) {
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

/** The warning banner above 25 links on the Free plan (spec 2.6, 9). */
export function LinkLimitWarning({ tier, count }: { tier: Tier; count: number }) {
  if (tier !== 'free' || count <= LINK_WARNING_ABOVE) return null;
  return (
    <div role="status" className="mb-4 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      You're using {count}/{FREE_LIMITS.links} links on the free plan
    </div>
  );
}
