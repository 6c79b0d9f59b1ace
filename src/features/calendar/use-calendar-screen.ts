import { useCurrentUser } from '../../backend/current-user-store.ts';
import { useUserSettings } from '../../data/queries/profile.ts';
import type { EventRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { CLOCK_REFRESH_MS } from '../../domain/calendar-classify.ts';
import type { Tier } from '../../domain/plans.ts';
import { useNow } from '../../ui/use-now.ts';
import type { CalendarScreen } from './calendar-messages.ts';
import type { ItemActions } from './calendar-items.tsx';
import { useItemDialogs, type ItemDialogs } from './use-item-dialogs.tsx';
import { useTaskToggle } from './use-task-toggle.ts';

export interface CalendarScreenState {
  /** The classification clock (spec 2.7: every 15 seconds). */
  now: Date;
  tier: Tier;
  /** The profile's zone (the synced row first: a change on another device shows here), else UTC. */
  timeZone: string;
  dialogs: ItemDialogs;
  actions: ItemActions;
  toggle(item: EventRow, value: boolean): void;
}

/** What the Calendar and Upcoming screens both need besides their rows (each reads its own: events.ts). */
export function useCalendarScreen(screen: CalendarScreen): CalendarScreenState {
  const user = useCurrentUser((state) => state.user);
  const { db } = useUserDb();
  const { tier, timeZone, profile } = useUserSettings(db, user);
  const now = useNow(CLOCK_REFRESH_MS);
  const dialogs = useItemDialogs(
    screen,
    tier,
    timeZone,
    profile?.default_reminder_minutes ?? null,
    profile !== undefined,
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
