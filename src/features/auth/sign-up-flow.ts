import { sanitizeUsername, usernameError, usernameMessages } from '../../domain/username.ts';
import type { AuthResult } from '../../backend/auth.ts';
import type { CurrentUser } from '../../backend/profile.ts';

export interface SignUpDeps {
  isUsernameAvailable(username: string): Promise<boolean>;
  hasSession(): Promise<boolean>;
  signUp(email: string, password: string, username: string): Promise<AuthResult>;
  loadUser(): Promise<CurrentUser | null>;
  claimUsername(username: string): Promise<boolean>;
  rememberUsername(username: string): void;
}

export type SignUpOutcome = { ok: true; username: string } | { ok: false; message: string };

/**
 * docs/product.md, Sign in: username check, account creation, fetch of the current user, saving the
 * username. When the account exists already (a second try after 'Username taken, try
 * another.'), only the username is saved again.
 */
export async function signUp(
  deps: SignUpDeps,
  input: { email: string; password: string; username: string },
): Promise<SignUpOutcome> {
  const username = sanitizeUsername(input.username);
  const invalid = usernameError(username);
  if (invalid) return { ok: false, message: invalid };
  const email = input.email.trim();
  if (!email || !input.password) {
    return { ok: false, message: 'You must provide either an email or phone number and a password' };
  }

  const signedIn = await deps.hasSession();
  if (!signedIn) {
    if (!(await deps.isUsernameAvailable(username))) return { ok: false, message: usernameMessages.unavailable };
    const created = await deps.signUp(email, input.password, username);
    if (!created.ok) return created;
  }

  const user = await deps.loadUser();
  if (!user) return { ok: false, message: 'Authentication failed' };
  if (user.username !== username && !(await deps.claimUsername(username))) {
    return { ok: false, message: usernameMessages.taken };
  }
  deps.rememberUsername(username);
  return { ok: true, username };
}
