import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';
import type { UserProfileRow } from '../rows.ts';

/** The signed-in user's profile; null when not pulled yet, undefined while loading. */
export function useProfile(db: LinkboardDb): UserProfileRow | null | undefined {
  return useLiveQuery(async () => (await db.user_profiles.get(db.userId)) ?? null, [db]);
}
