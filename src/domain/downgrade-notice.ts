import { PLAN_NAMES, type Tier } from './plans.ts';

/** What a downgrade keeps and what it stops, said once. */
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
