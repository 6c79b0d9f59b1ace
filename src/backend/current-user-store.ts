import { create } from 'zustand';
import type { CurrentUser } from './profile.ts';

export type SessionStatus = 'idle' | 'loading' | 'signed-in' | 'signed-out';

interface CurrentUserState {
  status: SessionStatus;
  user: CurrentUser | null;
  /** Loads the current user once (later calls reuse the first load). */
  ensureLoaded(): Promise<void>;
  /** Loads the current user again, for example after signing in. */
  reload(): Promise<CurrentUser | null>;
  setUser(user: CurrentUser | null): void;
}

let loading: Promise<CurrentUser | null> | null = null;
let listening = false;

/**
 * The signed-in user, shared by the shell and the screens. supabase-js is imported on
 * demand so that public pages never load it.
 */
export const useCurrentUser = create<CurrentUserState>((set, get) => ({
  status: 'idle',
  user: null,
  async ensureLoaded() {
    if (get().status === 'idle') await get().reload();
    else if (loading) await loading;
  },
  reload() {
    if (get().status !== 'signed-in') set({ status: 'loading' });
    loading = (async () => {
      const [{ supabase }, { fetchCurrentUser }] = await Promise.all([import('./supabase.ts'), import('./profile.ts')]);
      if (!listening) {
        listening = true;
        supabase.auth.onAuthStateChange((event) => {
          if (event === 'SIGNED_OUT') get().setUser(null);
        });
      }
      try {
        const user = await fetchCurrentUser(supabase);
        get().setUser(user);
        return user;
      } catch (error) {
        // Failure to load the current user is treated as signed out (spec 8).
        console.warn('Could not load the current user', error);
        get().setUser(null);
        return null;
      }
    })();
    return loading;
  },
  setUser(user) {
    set({ user, status: user ? 'signed-in' : 'signed-out' });
  },
}));
