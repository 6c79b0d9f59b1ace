import { useEffect, useRef, useState } from 'react';
import { useProfile } from '../data/queries/profile.ts';
import { useUserDb } from '../data/user-db-context.ts';
import { chooseTheme, unsavedThemeChoice } from '../ui/theme/theme-choice.ts';
import { useProfileTheme } from '../ui/theme/use-profile-theme.ts';

/**
 * The theme the user chose on Profile, synced with the profile, shown on this device. A choice this
 * device made and may not have saved (the page closed right after it) is saved now, once, and shown
 * instead of the profile's until the profile holds it.
 */
export function ProfileTheme({ userId }: { userId: string }) {
  const { db, mutate } = useUserDb();
  const theme = useProfile(db)?.theme;
  const [unsaved, setUnsaved] = useState(() => unsavedThemeChoice(userId));
  // The user it was saved again for. Once a start: `mutate` changes with the signed-in user, whom
  // the profile's update changes, and each new one would queue the choice again, without end.
  const savedFor = useRef<string | null>(null);
  useEffect(() => {
    if (unsaved === null || savedFor.current === userId) return;
    savedFor.current = userId;
    void chooseTheme(userId, unsaved, (value) => mutate('profile.update', { theme: value })).then(
      (saved) => !saved && setUnsaved(null),
      () => setUnsaved(null),
    );
  }, [userId, mutate, unsaved]);
  // The profile caught up: from now on it is what shows (a later change from another device too).
  if (unsaved !== null && theme === unsaved) setUnsaved(null);
  useProfileTheme(unsaved === null ? theme : undefined);
  return null;
}
