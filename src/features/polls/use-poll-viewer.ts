import { useCurrentUser } from '../../backend/current-user-store.ts';
import { useUserSettings } from '../../data/queries/profile.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { CLOCK_REFRESH_MS } from '../../domain/calendar-classify.ts';
import type { Tier } from '../../domain/plans.ts';
import { useNow } from '../../backend/use-now.ts';

export interface PollViewer {
  /** The signed-in user's own plan. */
  tier: Tier;
  /** The profile's zone (the synced row first, so a change on another device shows at once), else UTC. */
  timeZone: string;
  username: string;
  /** The clock that turns 'Ends' into 'Ended' (the app's 15-second refresh). */
  now: Date;
}

/** Who is looking at polls, in which zone, and when. */
export function usePollViewer(): PollViewer {
  const user = useCurrentUser((state) => state.user);
  const { db } = useUserDb();
  const { profile, tier, timeZone } = useUserSettings(db, user);
  const now = useNow(CLOCK_REFRESH_MS);
  return {
    tier,
    timeZone,
    username: profile?.username ?? user?.username ?? '',
    now,
  };
}
