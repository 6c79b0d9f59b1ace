import { supabase } from './supabase.ts';
import { rememberUsername } from './remembered-username.ts';
import { SESSION_STORAGE_KEY, sessionStorageAdapter } from './session-storage.ts';

export type AuthResult = { ok: true } | { ok: false; message: string };

function failure(error: { message?: string } | null | undefined): AuthResult {
  return { ok: false, message: error?.message || 'Authentication failed' };
}

export async function signInWithPassword(email: string, password: string): Promise<AuthResult> {
  try {
    const { error } = await supabase.auth.signInWithPassword({ email, password });
    return error ? failure(error) : { ok: true };
  } catch (error) {
    return failure(error as Error);
  }
}

export async function signUpWithPassword(email: string, password: string, username: string): Promise<AuthResult> {
  try {
    // The device's zone becomes the profile's (the calendar reads times in it; Profile changes it).
    const time_zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const { data, error } = await supabase.auth.signUp({ email, password, options: { data: { username, time_zone } } });
    if (error) return failure(error);
    if (!data.session) return failure(null);
    return { ok: true };
  } catch (error) {
    return failure(error as Error);
  }
}

export async function hasSession(): Promise<boolean> {
  const { data } = await supabase.auth.getSession();
  return !!data.session;
}

/** The anonymous check before sign-up; a failed check counts as unavailable. */
export async function isUsernameAvailable(username: string): Promise<boolean> {
  const { data, error } = await supabase.rpc('username_available', { p_username: username });
  return !error && data === true;
}

/** Saves the username on the signed-in user's profile; false when it is taken. */
export async function claimUsername(username: string): Promise<boolean> {
  const { error } = await supabase.rpc('claim_username', { p_username: username });
  return !error;
}

/**
 * docs/product.md, Application shell: sign out through the auth service (a failure is only warned about), forget
 * the remembered username, then hard-navigate to /.
 */
export async function signOutAndLeave(navigate: (path: string) => void = (path) => location.assign(path)) {
  let failed = false;
  // This device's reminder pushes stop with the session (another person may use it next).
  await import('./push-reminders.ts')
    .then((push) => push.disablePushReminders())
    .catch((error: unknown) => console.warn('Could not turn reminder pushes off', error));
  try {
    const { error } = await supabase.auth.signOut();
    if (error) {
      failed = true;
      console.warn('Sign-out failed', error);
    }
  } catch (error) {
    failed = true;
    console.warn('Sign-out failed', error);
  }
  // Offline, supabase-js keeps the session when the server cannot be told: forget it here.
  if (failed) await sessionStorageAdapter.removeItem(SESSION_STORAGE_KEY).catch(() => undefined);
  rememberUsername(null);
  navigate('/');
}
