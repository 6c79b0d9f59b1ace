/**
 * What each plan offers and costs (docs/product.md, Roles and permissions; Plans and limits; docs/product.md, Decisions decides the open points): the one
 * source of the public Features page and the Upgrade screen.
 */
import { FREE_LIMITS, type Tier } from './plans.ts';

export type BillingCycle = 'monthly' | 'yearly';

/** The plans that are bought (checkout's `plan`). */
export type PaidTier = Exclude<Tier, 'free'>;

export interface Price {
  /** '$4.99' */
  amount: string;
  /** What the amount buys, as docs/product.md words it: 'a month', 'per user a year'; empty for Free. */
  per: string;
}

export interface PlanOffer {
  tier: Tier;
  name: string;
  price: Record<BillingCycle, Price>;
  /** The yearly saving (docs/product.md, Plans and limits), paid plans only. */
  saving?: string;
  /** One line under the plan's name. */
  summary: string;
  rights: string[];
}

/** The yearly choice of the Upgrade screen's toggle (docs/product.md, Upgrade; Plans and limits). */
export const YEARLY_SAVING = 'Save 17%';

export const planCatalog: readonly PlanOffer[] = [
  {
    tier: 'free',
    name: 'Free',
    price: { monthly: { amount: '$0', per: '' }, yearly: { amount: '$0', per: '' } },
    summary: 'For trying Linkboard out and for light use.',
    rights: [
      `${FREE_LIMITS.directories} directory`,
      `${FREE_LIMITS.links} saved links`,
      `${FREE_LIMITS.eventsPerMonth} events a month`,
      `${FREE_LIMITS.pollsPerMonth} polls a month`,
      'Viewer invites only',
      'No tags or favourites, no recurring events',
      'Ads, plan badge counter and watermark shown',
    ],
  },
  {
    tier: 'pro',
    name: 'Pro',
    price: { monthly: { amount: '$4.99', per: 'a month' }, yearly: { amount: '$50', per: 'a year' } },
    saving: 'Save $10/year',
    summary: 'Unlimited links & directories • Calendar sync • Advanced voting • Priority support',
    rights: [
      'Unlimited directories, links and events',
      'Recurring events, tags and favourites',
      'Editor invites',
      'Password-protected directories',
      'Weekly broken link checks',
      'Watermark removal',
      'No ads',
    ],
  },
  {
    tier: 'team',
    name: 'Team',
    price: {
      monthly: { amount: '$9.99', per: 'per user a month' },
      yearly: { amount: '$100', per: 'per user a year' },
    },
    saving: 'Save $20/year',
    summary: 'For teams that share directories and decide together.',
    rights: [
      'Everything in Pro',
      'Shared directories with Editor and Viewer roles',
      'Team-only polls in directories',
      'No ads',
      'Priority email support',
    ],
  },
];

export function planOffer(tier: Tier): PlanOffer {
  const offer = planCatalog.find((plan) => plan.tier === tier);
  if (!offer) throw new Error(`No plan ${tier}`);
  return offer;
}

/** The price as docs/product.md words it: '$4.99 a month', '$100 per user a year', '$0'. */
export function priceText(tier: Tier, cycle: BillingCycle): string {
  const { amount, per } = planOffer(tier).price[cycle];
  return per ? `${amount} ${per}` : amount;
}

/** One row of the Upgrade screen's comparison table: what each plan gives. */
export interface ComparisonRow {
  feature: string;
  values: Record<Tier, string>;
}

const unlimited = 'Unlimited';
const paidOnly = (free: string, paid: string): Record<Tier, string> => ({ free, pro: paid, team: paid });

export const comparisonRows: readonly ComparisonRow[] = [
  { feature: 'Directories', values: paidOnly(String(FREE_LIMITS.directories), unlimited) },
  { feature: 'Saved links', values: paidOnly(String(FREE_LIMITS.links), unlimited) },
  { feature: 'Events a month', values: paidOnly(String(FREE_LIMITS.eventsPerMonth), unlimited) },
  { feature: 'Polls a month', values: paidOnly(String(FREE_LIMITS.pollsPerMonth), unlimited) },
  { feature: 'Recurring events', values: paidOnly('No', 'Yes') },
  { feature: 'Tags and favourites', values: paidOnly('No', 'Yes') },
  { feature: 'Editor invites', values: paidOnly('No (Viewer invites only)', 'Yes') },
  { feature: 'Password-protected directories', values: paidOnly('No', 'Yes') },
  { feature: 'Broken link checks', values: paidOnly('No', 'Weekly') },
  { feature: 'Team polls in shared directories', values: { free: 'No', pro: 'No', team: 'Yes' } },
  { feature: 'Ads', values: paidOnly('Shown', 'None') },
  { feature: 'Watermark on polls', values: paidOnly('Shown', 'Removed') },
  { feature: 'Support', values: { free: 'Contact form', pro: 'Priority support', team: 'Priority email support' } },
];

/** What is coming (docs/product.md, Plans and limits). */
export const roadmap: readonly { when: string; what: string }[] = [
  { when: 'Q1 2026', what: 'reminders, export and calendar sync' },
  { when: 'Q2 2026', what: 'team management' },
];
