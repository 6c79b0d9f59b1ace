/** Usernames (docs/product.md, Validation; Plans and limits): at least 3 of a-z, 0-9, underscore and hyphen. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;

export const usernameMessages = {
  tooShort: 'Please choose a username (min 3 chars).',
  unavailable: 'Username is unavailable.',
  taken: 'Username taken, try another.',
} as const;

/** What the sign-up input keeps of what is typed: allowed characters only, lower-cased. */
export function sanitizeUsername(input: string): string {
  return input
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '')
    .slice(0, USERNAME_MAX);
}

/** The error for a username before any server check, or null when it may be tried. */
export function usernameError(username: string): string | null {
  return sanitizeUsername(username).length < USERNAME_MIN ? usernameMessages.tooShort : null;
}
