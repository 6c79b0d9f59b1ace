/** Plans and their limits (docs/product.md, Roles and permissions; Plans and limits, docs/product.md, Decisions). */
export type Tier = 'free' | 'pro' | 'team';

/** A missing or unknown tier counts as free. */
export function tierOf(value: string | null | undefined): Tier {
  return value === 'pro' || value === 'team' ? value : 'free';
}

export const FREE_LIMITS = {
  directories: 1,
  links: 30,
  eventsPerMonth: 10,
  pollsPerMonth: 5,
} as const;

export interface PlanCard {
  title: string;
  text: string;
  /** The upgrade button's label; none on the top plan. */
  action: string | null;
}

/** The sidebar's plan card texts by tier (docs/product.md, Application shell). */
export function planCard(tier: Tier): PlanCard {
  switch (tier) {
    case 'pro':
      return {
        title: 'Pro Plan',
        text: 'Upgrade to Team for collaboration and advanced tools.',
        action: 'Upgrade to Team',
      };
    case 'team':
      return { title: 'Team Plan', text: 'You have all the best features!', action: null };
    default:
      return {
        title: 'Free Plan',
        text: 'Upgrade to Pro for unlimited links and advanced features',
        action: 'Upgrade to Pro',
      };
  }
}

const RANK: Record<Tier, number> = { free: 0, pro: 1, team: 2 };

/** How the plan moved since this device last saw it: null the first time, or when it did not move. */
export function planChange(seen: Tier | null, now: Tier): 'upgrade' | 'downgrade' | null {
  if (seen === null || seen === now) return null;
  return RANK[now] > RANK[seen] ? 'upgrade' : 'downgrade';
}

export const PLAN_NAMES: Record<Tier, string> = { free: 'Free', pro: 'Pro', team: 'Team' };
