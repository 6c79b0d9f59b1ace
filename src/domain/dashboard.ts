/**
 * The dashboard's numbers and decisions (docs/product.md, Dashboard; Calendar 'Dashboard', 9; docs/product.md, Decisions; Dashboard), pure:
 * the four stats, Today's Focus, the Free plan's usage ratios and whether the upgrade banner shows.
 *
 * The lists and numbers themselves are the calendar's (src/data/queries/events.ts): a stored row
 * always says whether it is a task, so the dashboard's reading of a record without `is_task`
 * (docs/product.md, Records) never applies to one.
 */
import type { CalendarClassification, CalendarItem } from './calendar-classify.ts';
import { FREE_LIMITS, type Tier } from './plans.ts';

/** The upgrade banner shows when any usage is above this share of its limit (docs/product.md, Plans and limits). */
export const UPGRADE_BANNER_ABOVE_PERCENT = 70;

export interface TodaysFocus<T extends CalendarItem> {
  /** Events starting today and not over yet, by start, at most 10. */
  events: T[];
  /** Pending tasks due before today's midnight. */
  overdue: T[];
  /** Pending tasks due today or without a date. */
  tasks: T[];
  /** All three are empty: the card reads 'Nothing scheduled for today'. */
  empty: boolean;
}

/** Today's Focus: the calendar's own today lists, so the two screens never disagree on what today holds. */
export function todaysFocus<T extends CalendarItem>(
  lists: Pick<CalendarClassification<T>, 'todayEvents' | 'overdue' | 'todayTasks'>,
): TodaysFocus<T> {
  const { todayEvents: events, overdue, todayTasks: tasks } = lists;
  return { events, overdue, tasks, empty: events.length + overdue.length + tasks.length === 0 };
}

export interface DashboardStat {
  label: string;
  value: number;
}

export interface StatCounts {
  /** Links the user owns. */
  links: number;
  events: number;
  tasksDone: number;
  /** Polls the user created this calendar month (public and team). */
  pollsThisMonth: number;
}

/** The stats block, in order (docs/product.md, Dashboard; the fourth filled per docs/product.md, Dashboard). */
export function dashboardStats(counts: StatCounts): DashboardStat[] {
  return [
    { label: 'Saved Links', value: counts.links },
    { label: 'Calendar Events', value: counts.events },
    { label: 'Tasks Done', value: counts.tasksDone },
    { label: 'Polls This Month', value: counts.pollsThisMonth },
  ];
}

export type UsageKind = 'links' | 'events' | 'votes';

export interface Usage {
  kind: UsageKind;
  used: number;
  limit: number;
  /** '22/30 links', in the wording of the screens' badges. */
  text: string;
}

/**
 * The Free plan's usage against its limits (docs/product.md, Plans and limits): owned links of 30, events created this
 * month of 10, and votes (polls created this month) of 5.
 */
export function freeUsage(counts: { links: number; eventsThisMonth: number; pollsThisMonth: number }): Usage[] {
  const { links, eventsPerMonth, pollsPerMonth } = FREE_LIMITS;
  return [
    { kind: 'links', used: counts.links, limit: links, text: `${counts.links}/${links} links` },
    {
      kind: 'events',
      used: counts.eventsThisMonth,
      limit: eventsPerMonth,
      text: `${counts.eventsThisMonth}/${eventsPerMonth} events this month`,
    },
    {
      kind: 'votes',
      used: counts.pollsThisMonth,
      limit: pollsPerMonth,
      text: `${counts.pollsThisMonth}/${pollsPerMonth} polls this month`,
    },
  ];
}

/** Whether a usage is above 70 % of its limit (integers, so 21 of 30 is exactly 70 % and not above). */
export function nearLimit(usage: Pick<Usage, 'used' | 'limit'>): boolean {
  return usage.used * 100 > usage.limit * UPGRADE_BANNER_ABOVE_PERCENT;
}

/**
 * The usages the upgrade banner names; empty when it does not show: Free users only, not
 * dismissed this session, and only when some usage is above 70 % of its limit.
 */
export function upgradeBannerUsages(tier: Tier, usages: readonly Usage[], dismissed: boolean): Usage[] {
  if (tier !== 'free' || dismissed) return [];
  return usages.filter(nearLimit);
}
