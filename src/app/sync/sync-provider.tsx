import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import type { CurrentUser } from '../../backend/profile.ts';
import { rememberUsername } from '../../backend/remembered-username.ts';
import type { LinkboardDb } from '../../data/db.ts';
import { MutationError } from '../../data/mutation-error.ts';
import { StorageFullError } from '../../data/storage-full.ts';
import { useProfile } from '../../data/queries/profile.ts';
import { UserDbContext, type UserDb } from '../../data/user-db-context.ts';
import { LoadingScreen } from '../../ui/loading-screen.tsx';
import { toast } from '../../ui/toast-store.ts';
import { loadedMutate, loadMutate, warmWritePath } from './write-path.ts';
import { latestUser, mutationContextFor, renderedSession, startUserSession, useUserSession } from './user-session.ts';

/** Keeps the current user (shell, guards, offline cache) in step with the synced profile row. */
function ProfileFollower({ db }: { db: LinkboardDb }) {
  const profile = useProfile(db);
  const first = useRef(true);
  useEffect(() => {
    if (!profile) return;
    // The row this device held before the session's first pull is no newer than the profile the
    // server has just answered (current-user-store): following it would move a fresh plan back
    // for a moment (and tell a downgrade). Offline, the stored row is the newest there is.
    if (first.current) {
      first.current = false;
      if (!useCurrentUser.getState().offline) return;
    }
    // A row older than the profile this session already holds (fetched from the server after the
    // device's last pull, such as a new plan) is not followed: the pull will bring the newer one.
    const held = useCurrentUser.getState().user?.updated_at;
    if (held && Date.parse(profile.updated_at) < Date.parse(held)) return;
    useCurrentUser.getState().updateUser({
      updated_at: profile.updated_at,
      username: profile.username,
      full_name: profile.full_name,
      bio: profile.bio,
      subscription_tier: profile.subscription_tier,
      time_zone: profile.time_zone,
      email: profile.email ?? useCurrentUser.getState().user?.email ?? null,
    });
    if (profile.username) rememberUsername(profile.username);
  }, [profile]);
  return null;
}

/**
 * Opens the user's database and sync engine on sign-in and closes them on sign-out; screens
 * get `{ db, mutate }` through UserDbContext.
 */
export function SyncProvider({ user, children }: { user: CurrentUser; children: ReactNode }) {
  // The latest user (plan, e-mail, time zone) at the time of each mutation and sync.
  const latest = useMemo(() => latestUser(user), [user]);
  const stored = useUserSession((state) => state.session);
  const userId = user.id;
  // Started in the first render (the database opening, the screen's reads next), published once committed.
  const [initial] = useState(() => renderedSession(userId, latest));
  const session = stored && stored.userId === userId && !stored.disposed ? stored : initial.disposed ? null : initial;
  useEffect(() => {
    // Disposed already when React ran this effect twice (development's strict mode): a new one.
    const started = initial.disposed || initial.userId !== userId ? startUserSession(userId, latest) : initial;
    useUserSession.setState({ session: started });
    return () => {
      started.dispose();
      if (useUserSession.getState().session === started) useUserSession.setState({ session: null });
    };
    // The session lives as long as the user id; `latest` follows the user's other fields.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId]);

  // The write path loads with the first sign of a change to come, or ahead of it where no service
  // worker would serve it offline (write-path.ts).
  useEffect(() => {
    if (!session) return;
    return warmWritePath();
  }, [session]);

  const value = useMemo<UserDb | null>(() => {
    if (!session || session.userId !== userId) return null;
    return {
      db: session.db,
      async mutate(name, args, onRefused) {
        try {
          // The mutators (checks and optimistic writes) load when idle, or with the first change.
          const { mutate } = loadedMutate() ?? (await loadMutate());
          return await mutate(session.db, name, args, mutationContextFor(latest()));
        } catch (error) {
          // Refused, or no space on the device for it (docs/faults.md): nothing written, the user told why.
          if (error instanceof MutationError || error instanceof StorageFullError) {
            if (onRefused) onRefused(error.message);
            else toast(error.message, 'error');
            return null;
          }
          throw error;
        }
      },
    };
  }, [session, userId, latest]);

  if (!value) return <LoadingScreen />;
  return (
    <UserDbContext.Provider value={value}>
      <ProfileFollower db={value.db} />
      {children}
    </UserDbContext.Provider>
  );
}
