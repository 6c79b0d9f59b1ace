/** Plans and their limits (spec 6 and 9, design 4). */
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

/** The sidebar's plan card texts by tier (spec 2.3). */
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

/** What a downgrade keeps and what it stops (issue 14, point 3), said once. */
export function downgradeNotice(from: Tier, to: Tier): { title: string; text: string[] } {
  if (to === 'free') {
    return {
      title: 'Your plan is now Free',
      text: [
        `Your ${PLAN_NAMES[from]} subscription has ended. Everything you saved stays readable: your directories, links, tags, favourites, recurring events and members are kept.`,
        'Above the Free limits you cannot add more: a second directory, more than 30 links, more than 10 events or 5 polls a month, new recurring events, tags, favourites and Editor invites need Pro.',
      ],
    };
  }
  return {
    title: `Your plan is now ${PLAN_NAMES[to]}`,
    text: [
      `Your plan changed from ${PLAN_NAMES[from]} to ${PLAN_NAMES[to]}. Everything you saved stays readable; shared directories' Editor roles and team polls need Team.`,
    ],
  };
}
