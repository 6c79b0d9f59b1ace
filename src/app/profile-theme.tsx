import { useProfile } from '../data/queries/profile.ts';
import { useUserDb } from '../data/user-db-context.ts';
import { useProfileTheme } from '../ui/theme/use-profile-theme.ts';

/** The theme the user chose on Profile, synced with the profile, shown on this device. */
export function ProfileTheme() {
  const { db } = useUserDb();
  useProfileTheme(useProfile(db)?.theme);
  return null;
}
