import { useMemo } from 'react';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { rememberedUsername } from '../../backend/remembered-username.ts';
import { useDashboardCounts } from '../../data/queries/dashboard.ts';
import { useCalendarLists } from '../../data/queries/events.ts';
import { useUserSettings } from '../../data/queries/profile.ts';
import type { EventRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { CLOCK_REFRESH_MS } from '../../domain/calendar-classify.ts';
import {
  dashboardStats,
  freeUsage,
  todaysFocus,
  type DashboardStat,
  type TodaysFocus,
  type Usage,
} from '../../domain/dashboard.ts';
import { monthStart } from '../../domain/limits.ts';
import type { Tier } from '../../domain/plans.ts';
import { useNow } from '../../backend/use-now.ts';

export interface DashboardData {
  fullName: string | null | undefined;
  /** For the screens' paths: the user's username, or the one remembered on this device. */
  username: string | null;
  tier: Tier;
  timeZone: string;
  now: Date;
  /** Undefined while the local reads are under way (the skeleton shows). */
  loaded?: {
    stats: DashboardStat[];
    focus: TodaysFocus<EventRow>;
    usages: Usage[];
  };
}

/** Everything the dashboard shows, from the local database, so it opens offline with the same numbers. */
export function useDashboard(): DashboardData {
  const user = useCurrentUser((state) => state.user);
  const { db } = useUserDb();
  const { profile, tier, timeZone } = useUserSettings(db, user);
  // The calendar's classification clock (docs/product.md, Calendar: the today lists are recomputed every 15 seconds).
  const now = useNow(CLOCK_REFRESH_MS);
  const calendar = useCalendarLists(db, now, timeZone);
  const since = monthStart(now, timeZone).getTime();
  const counts = useDashboardCounts(db, db.userId, since);
  const focus = useMemo(() => (calendar ? todaysFocus(calendar.lists) : undefined), [calendar]);
  const ready = profile !== undefined && counts !== undefined && calendar !== undefined && focus !== undefined;
  return {
    fullName: profile?.full_name ?? user?.full_name,
    username: profile?.username ?? user?.username ?? rememberedUsername(),
    tier,
    timeZone,
    now,
    loaded: ready
      ? {
          stats: dashboardStats({
            links: counts.links,
            events: calendar.counts.events,
            tasksDone: calendar.counts.completedTasks,
            pollsThisMonth: counts.pollsSince,
          }),
          focus,
          usages: freeUsage({
            links: counts.links,
            eventsThisMonth: calendar.counts.eventsThisMonth,
            pollsThisMonth: counts.pollsSince,
          }),
        }
      : undefined,
  };
}
