import { useEffect } from 'react';
import { applyThemeChoice, type ThemeChoice } from './theme.ts';

/**
 * Shows the signed-in user's synced choice: on sign-in, and whenever it changes (on this device or,
 * through sync, on another). Undefined (the profile row not local yet) leaves the device's choice.
 */
export function useProfileTheme(choice: ThemeChoice | undefined): void {
  useEffect(() => {
    if (choice) applyThemeChoice(choice);
  }, [choice]);
}
