import { useLiveQuery } from 'dexie-react-hooks';
import { safeTimeZone } from '../../domain/event-times.ts';
import { tierOf, type Tier } from '../../domain/plans.ts';
import type { LinkboardDb } from '../db.ts';
import type { UserProfileRow } from '../rows.ts';

/** The signed-in user's profile; null when not pulled yet, undefined while loading. */
export function useProfile(db: LinkboardDb): UserProfileRow | null | undefined {
  return useLiveQuery(async () => (await db.user_profiles.get(db.userId)) ?? null, [db]);
}

/** What a screen reads the user's plan and zone from before the profile row is local (the current user). */
export interface ProfileFallback {
  subscription_tier?: string | null;
  time_zone?: string | null;
  /** When that profile was last changed: a fallback newer than the local row wins. */
  updated_at?: string | null;
}

export interface UserSettings {
  profile: UserProfileRow | null | undefined;
  tier: Tier;
  /** The profile's zone when known, else UTC (docs/product.md, Plans and limits). */
  timeZone: string;
}

/**
 * The user's plan and time zone, from the synced profile row first (a change made on another
 * device, or by the billing webhook, shows at once), else from `fallback`.
 */
export function useUserSettings(db: LinkboardDb, fallback: ProfileFallback | null | undefined): UserSettings {
  const profile = useProfile(db);
  const [first, second] = byFreshness(profile, fallback);
  return {
    profile,
    tier: tierOf(first?.subscription_tier ?? second?.subscription_tier),
    timeZone: safeTimeZone(first?.time_zone ?? second?.time_zone),
  };
}

/**
 * The local row first, unless the fallback (the profile the session fetched) was changed after it:
 * an upgrade the device has not pulled yet must not read as Free on one screen and Pro on another.
 */
function byFreshness(
  profile: UserProfileRow | null | undefined,
  fallback: ProfileFallback | null | undefined,
): [ProfileFallback | null | undefined, ProfileFallback | null | undefined] {
  const local = Date.parse(profile?.updated_at ?? '');
  const fetched = Date.parse(fallback?.updated_at ?? '');
  return fetched > local ? [fallback, profile] : [profile, fallback];
}
