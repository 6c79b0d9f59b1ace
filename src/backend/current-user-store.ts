import { create } from 'zustand';
import { loadOfflineUser } from './offline-user.ts';
import type { CurrentUser } from './profile.ts';
import type { LinkboardClient } from './page-client.ts';
import { readStoredSessionUser } from './session-storage.ts';

export type SessionStatus = 'idle' | 'loading' | 'signed-in' | 'signed-out';

interface CurrentUserState {
  status: SessionStatus;
  user: CurrentUser | null;
  /** True when the user was restored from the cached session and profile (no network). */
  offline: boolean;
  /** The user's username before the last rename, so a path with the old name can follow it. */
  formerUsername: string | null;
  /** Loads the current user once (later calls reuse the first load). */
  ensureLoaded(): Promise<void>;
  /** Loads the current user again, for example after signing in. */
  reload(): Promise<CurrentUser | null>;
  setUser(user: CurrentUser | null): void;
  /** Newer profile fields (from the local database); cached for the next offline boot. */
  updateUser(fields: Partial<Omit<CurrentUser, 'id'>>): void;
}

let loading: Promise<CurrentUser | null> | null = null;
let listening = false;

function offlineNow(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** Signs out when the auth client does (once per page). */
function listenForSignOut(supabase: Pick<LinkboardClient, 'auth'>, get: () => CurrentUserState): void {
  if (listening) return;
  listening = true;
  supabase.auth.onAuthStateChange((event) => {
    if (event === 'SIGNED_OUT') get().setUser(null);
  });
}

/**
 * The signed-in user, shared by the shell and the screens. supabase-js is imported on
 * demand, and only when a session is stored, so that a visitor's pages never load it. Offline (or with the backend unreachable) the
 * cached session and profile keep the user signed in; only a missing or refused session
 * signs out.
 */
export const useCurrentUser = create<CurrentUserState>((set, get) => ({
  status: 'idle',
  user: null,
  offline: false,
  formerUsername: null,
  async ensureLoaded() {
    if (get().status === 'idle') await get().reload();
    else if (loading) await loading;
  },
  reload() {
    if (get().status !== 'signed-in') set({ status: 'loading' });
    loading = (async () => {
      // No stored session: signed out, without loading supabase-js (a visitor's page never does).
      if (!(await readStoredSessionUser())) {
        get().setUser(null);
        set({ offline: false });
        return null;
      }
      // Offline by the browser's own word: the cached session and profile at once, without
      // loading supabase-js or waiting for requests that can only fail (docs/bench.md, offline
      // warm start). The session is checked when the sync engine next reaches the server.
      if (offlineNow()) {
        const cached = await loadOfflineUser();
        if (cached) {
          get().setUser(cached);
          set({ offline: true });
          // A sign-out the auth client finds once back online (a refused refresh) still signs out.
          window.addEventListener(
            'online',
            () => void import('./supabase.ts').then(({ supabase }) => listenForSignOut(supabase, get)),
            { once: true },
          );
          return cached;
        }
      }
      const [{ supabase }, { fetchCurrentUser, BackendUnreachableError }, cache] = await Promise.all([
        import('./supabase.ts'),
        import('./profile.ts'),
        import('./profile-cache.ts'),
      ]);
      listenForSignOut(supabase, get);
      try {
        const user = await fetchCurrentUser(supabase);
        get().setUser(user);
        set({ offline: false });
        if (user) void cache.saveCachedProfile(user);
        return user;
      } catch (error) {
        if (error instanceof BackendUnreachableError || offlineNow()) {
          const cached = await loadOfflineUser();
          if (cached) {
            get().setUser(cached);
            set({ offline: true });
            return cached;
          }
        }
        // Failure to load the current user is treated as signed out (docs/product.md, Error messages).
        console.warn('Could not load the current user', error);
        get().setUser(null);
        return null;
      }
    })();
    return loading;
  },
  setUser(user) {
    const previous = get().user;
    const renamed = !!user && previous?.id === user.id && previous.username !== user.username;
    set({
      user,
      status: user ? 'signed-in' : 'signed-out',
      formerUsername: renamed ? previous.username : user && previous?.id === user.id ? get().formerUsername : null,
    });
  },
  updateUser(fields) {
    const user = get().user;
    if (!user) return;
    const next = { ...user, ...fields };
    if ((Object.keys(fields) as (keyof typeof fields)[]).every((key) => user[key] === next[key])) return;
    get().setUser(next);
    void import('./profile-cache.ts').then((cache) => cache.saveCachedProfile(next));
  },
}));
