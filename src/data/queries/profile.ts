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
}

export interface UserSettings {
  profile: UserProfileRow | null | undefined;
  tier: Tier;
  /** The profile's zone when known, else UTC (spec 9). */
  timeZone: string;
}

/**
 * The user's plan and time zone, from the synced profile row first (a change made on another
 * device, or by the billing webhook, shows at once), else from `fallback`.
 */
export function useUserSettings(db: LinkboardDb, fallback: ProfileFallback | null | undefined): UserSettings {
  const profile = useProfile(db);
  return {
    profile,
    tier: tierOf(profile?.subscription_tier ?? fallback?.subscription_tier),
    timeZone: safeTimeZone(profile?.time_zone ?? fallback?.time_zone),
  };
}
