/**
 * The app's theme (docs/product.md, Profile; docs/architecture.md, Themes). The choice is light,
 * dark or system; what shows is `data-theme` on <html>. public/theme-boot.js sets it before the
 * first paint from the choice this device last used (`lb_theme` in localStorage); this module
 * keeps it: when the profile's synced choice arrives or changes, and when the system switches.
 */
export const THEME_KEY = 'lb_theme';
/** The profile's choices (the synced field's values, src/domain/validation.ts). */
export const THEME_CHOICES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type Theme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return (THEME_CHOICES as readonly unknown[]).includes(value);
}

/** What a choice shows, given whether the system is dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  return choice === 'dark' || (choice === 'system' && systemDark) ? 'dark' : 'light';
}

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
}

/** The choice this device last used; system when none (or storage is blocked). */
export function storedThemeChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return isThemeChoice(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

let current: ThemeChoice | null = null;

/** Shows `choice` now and remembers it on this device for the next cold start. */
export function applyThemeChoice(choice: ThemeChoice): void {
  current = choice;
  try {
    localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage blocked: the theme still shows; the next cold start follows the system.
  }
  document.documentElement.setAttribute('data-theme', resolveTheme(choice, systemDark()));
}

/** Follows the system's switches while the choice is 'system'. Returns the unsubscribe. */
export function followSystemTheme(): () => void {
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia(DARK_QUERY);
  const onChange = () => {
    const choice = current ?? storedThemeChoice();
    if (choice === 'system') document.documentElement.setAttribute('data-theme', resolveTheme(choice, query.matches));
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
