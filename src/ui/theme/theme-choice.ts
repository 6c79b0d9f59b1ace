/**
 * A theme chosen on this device (on Profile, or in the palette): shown at once and saved to the
 * synced profile (docs/architecture.md, Themes). Between the two the choice is kept in localStorage
 * as unsaved, written synchronously with the click: a page closed before the profile's write commits
 * (the tab shut right after the click) would otherwise start next with the profile's earlier choice,
 * and the click would be lost. The next start saves it again (`ProfileTheme`, src/app).
 */
import { applyThemeChoice, isThemeChoice, type ThemeChoice } from './theme.ts';

const UNSAVED_KEY = 'lb_theme_unsaved';

interface Unsaved {
  userId: string;
  choice: ThemeChoice;
}

/** The choice `userId` made on this device that may not be saved yet; null when none. */
export function unsavedThemeChoice(userId: string): ThemeChoice | null {
  try {
    const value = JSON.parse(localStorage.getItem(UNSAVED_KEY) ?? 'null') as Partial<Unsaved> | null;
    return value?.userId === userId && isThemeChoice(value.choice) ? value.choice : null;
  } catch {
    return null;
  }
}

function writeUnsaved(value: Unsaved | null): void {
  try {
    if (value) localStorage.setItem(UNSAVED_KEY, JSON.stringify(value));
    else localStorage.removeItem(UNSAVED_KEY);
  } catch {
    // Storage blocked: the choice is saved as before, without the safety net.
  }
}

/**
 * Shows `choice` and saves it with `save` (the profile's update; null when refused). Resolves whether
 * it was saved (false: refused). Unsaved until then; a newer choice made meanwhile stays unsaved
 * until its own save.
 */
export async function chooseTheme(
  userId: string,
  choice: ThemeChoice,
  save: (choice: ThemeChoice) => Promise<unknown>,
): Promise<boolean> {
  applyThemeChoice(choice);
  writeUnsaved({ userId, choice });
  const saved = (await save(choice)) !== null;
  // Saved, or refused (told to the user): nothing to save again. A save that threw (storage
  // failing) stays unsaved, for the next start to try.
  if (unsavedThemeChoice(userId) === choice) writeUnsaved(null);
  return saved;
}
