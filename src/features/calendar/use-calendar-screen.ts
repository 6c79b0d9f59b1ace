import { useCurrentUser } from '../../backend/current-user-store.ts';
import type { LinkboardDb } from '../../data/db.ts';
import { useEventsMadeSince } from '../../data/queries/events.ts';
import { useUserSettings } from '../../data/queries/profile.ts';
import type { EventRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { CLOCK_REFRESH_MS } from '../../domain/calendar-classify.ts';
import { monthStart, underLimit } from '../../domain/limits.ts';
import type { Tier } from '../../domain/plans.ts';
import { messages } from '../../domain/sync-codes.ts';
import { upgradePath, type PlanLimit } from '../../ui/limit-notice.tsx';
import { useNow } from '../../backend/use-now.ts';
import type { CalendarScreen } from './calendar-messages.ts';
import type { ItemActions } from './calendar-items.tsx';
import { useItemDialogs, type ItemDialogs } from './use-item-dialogs.tsx';
import { useTaskToggle } from './use-task-toggle.ts';

export interface CalendarScreenState {
  /** The classification clock (docs/product.md, Calendar: every 15 seconds). */
  now: Date;
  tier: Tier;
  /** The profile's zone (the synced row first: a change on another device shows here), else UTC. */
  timeZone: string;
  dialogs: ItemDialogs;
  actions: ItemActions;
  toggle(item: EventRow, value: boolean): void;
}

/**
 * The Free plan's events limit when the month's events are used up (tasks are not counted), for
 * the dialog to say before anything is filled in; null under it, on a paid plan, or while counting.
 */
function useEventLimit(db: LinkboardDb, tier: Tier, timeZone: string, now: Date, username?: string | null) {
  const made = useEventsMadeSince(db, monthStart(now, timeZone));
  if (tier !== 'free' || made === undefined || underLimit(tier, 'eventsPerMonth', made)) return null;
  const limit: PlanLimit = {
    message: messages.moreEvents,
    upgradeTo: upgradePath(username),
    note: 'You can still add tasks.',
  };
  return limit;
}

/** What the Calendar and Upcoming screens both need besides their rows (each reads its own: events.ts). */
export function useCalendarScreen(screen: CalendarScreen): CalendarScreenState {
  const user = useCurrentUser((state) => state.user);
  const { db } = useUserDb();
  const { tier, timeZone, profile } = useUserSettings(db, user);
  const now = useNow(CLOCK_REFRESH_MS);
  const eventLimit = useEventLimit(db, tier, timeZone, now, user?.username);
  const dialogs = useItemDialogs(
    screen,
    tier,
    timeZone,
    profile?.default_reminder_minutes ?? null,
    profile !== undefined,
    eventLimit,
  );
  const toggle = useTaskToggle(screen);
  return {
    now,
    tier,
    timeZone,
    dialogs,
    actions: { onEdit: dialogs.edit, onDelete: dialogs.remove },
    toggle,
  };
}
