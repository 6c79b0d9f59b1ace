/**
 * The signed-in account's e-mail address as the auth server has it: an
 * address is unconfirmed until the user opens the link mailed to it, and an address change
 * waits (new_email) until the new address confirms it. Shared by the shell's banner and the
 * Profile screen. supabase-js loads on first use.
 */
import { useEffect } from 'react';
import { create } from 'zustand';

export interface AuthEmail {
  email: string | null;
  confirmed: boolean;
  /** An address change waiting for its confirmation link to be opened. */
  newEmail: string | null;
}

interface AuthUserFields {
  email?: string | null;
  email_confirmed_at?: string | null;
  new_email?: string | null;
}

interface AuthEmailState {
  /** Null until known. */
  info: AuthEmail | null;
  refresh(): Promise<void>;
  /** After an address change was asked for: the new address waits for its link. */
  setPending(newEmail: string): void;
}

const client = async () => (await import('../../backend/supabase.ts')).supabase;

function infoOf(user: AuthUserFields): AuthEmail {
  return { email: user.email ?? null, confirmed: !!user.email_confirmed_at, newEmail: user.new_email || null };
}

const online = () => typeof navigator === 'undefined' || navigator.onLine !== false;

let refreshing: Promise<void> | null = null;

export const useAuthEmailStore = create<AuthEmailState>((set) => ({
  info: null,
  refresh() {
    refreshing ??= (async () => {
      try {
        const supabase = await client();
        // The stored session first (offline too), then the server's word when online.
        const { data } = await supabase.auth.getSession();
        if (!data.session) return set({ info: null });
        set({ info: infoOf(data.session.user) });
        if (!online()) return;
        const { data: fresh, error } = await supabase.auth.getUser();
        if (!error && fresh.user) set({ info: infoOf(fresh.user) });
      } catch {
        // Unknown stays unknown: no banner rather than a wrong one.
      } finally {
        refreshing = null;
      }
    })();
    return refreshing;
  },
  setPending(newEmail) {
    set((state) => ({ info: state.info ? { ...state.info, newEmail } : state.info }));
  },
}));

/** The account's address, refreshed on mount and whenever the tab becomes visible. */
export function useAuthEmail(): AuthEmail | null {
  const refresh = useAuthEmailStore((state) => state.refresh);
  useEffect(() => {
    void refresh();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refresh]);
  return useAuthEmailStore((state) => state.info);
}

export type EmailRequest = { ok: true } | { ok: false; message: string };

const OFFLINE = 'You are offline. Connect to the internet and try again.';

function failure(error: { name?: string; message?: string }): EmailRequest {
  if (!online() || error.name === 'AuthRetryableFetchError') return { ok: false, message: OFFLINE };
  return { ok: false, message: error.message || 'Something went wrong. Please try again.' };
}

/** Mails the sign-up confirmation link again; a throttled request answers the server's message. */
export async function resendConfirmation(email: string): Promise<EmailRequest> {
  try {
    const { error } = await (await client()).auth.resend({ type: 'signup', email });
    return error ? failure(error) : { ok: true };
  } catch (error) {
    return failure(error as Error);
  }
}

/** Asks for an address change: the server mails a link to the new address, which changes nothing yet. */
export async function requestEmailChange(email: string): Promise<EmailRequest> {
  try {
    const { error } = await (await client()).auth.updateUser({ email });
    return error ? failure(error) : { ok: true };
  } catch (error) {
    return failure(error as Error);
  }
}
