/** Plans, rights and prices (spec 6 and 9; design 4 decides the open points). */

export interface PlanRow {
  name: string;
  monthly: string;
  yearly: string;
  /** The yearly saving, as the upgrade screen words it. */
  saving?: string;
  rights: string[];
}

export const plans: PlanRow[] = [
  {
    name: 'Free',
    monthly: '$0',
    yearly: '$0',
    rights: [
      '1 directory',
      '30 saved links',
      '10 events a month',
      '5 polls a month',
      'Viewer invites only',
      'No tags or favourites, no recurring events',
      'Ads, plan badge counter and watermark shown',
    ],
  },
  {
    name: 'Pro',
    monthly: '$4.99 a month',
    yearly: '$50 a year',
    saving: 'Save $10/year',
    rights: [
      'Unlimited directories, links and events',
      'Recurring events, tags and favourites',
      'Editor invites',
      'Password-protected directories',
      'Watermark removal',
      'No ads',
    ],
  },
  {
    name: 'Team',
    monthly: '$9.99 per user a month',
    yearly: '$100 per user a year',
    saving: 'Save $20/year',
    rights: [
      'Everything in Pro',
      'Shared directories with Editor and Viewer roles',
      'Team-only polls in directories',
      'No ads',
      'Priority email support',
    ],
  },
];
