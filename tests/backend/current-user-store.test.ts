// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const { auth, rpc } = vi.hoisted(() => ({
  auth: { getSession: vi.fn(), onAuthStateChange: vi.fn() },
  rpc: vi.fn(),
}));
vi.mock('../../src/backend/supabase.ts', () => ({ supabase: { auth, rpc } }));

import { useCurrentUser } from '../../src/backend/current-user-store.ts';
import { deleteCachedProfile, loadCachedProfile, saveCachedProfile } from '../../src/backend/profile-cache.ts';
import type { CurrentUser } from '../../src/backend/profile.ts';
import { SESSION_STORAGE_KEY, sessionStorageAdapter } from '../../src/backend/session-storage.ts';

const profile: CurrentUser = {
  id: 'u1',
  email: 'ada@example.com',
  username: 'ada',
  full_name: 'Ada Lovelace',
  bio: 'Engines',
  subscription_tier: 'pro',
  time_zone: 'Europe/London',
};
const stored = {
  access_token: 'a',
  refresh_token: 'r',
  user: { id: 'u1', email: 'ada@example.com', user_metadata: {} },
};

beforeEach(async () => {
  useCurrentUser.setState({ status: 'idle', user: null, offline: false, formerUsername: null });
  auth.getSession.mockResolvedValue({ data: { session: stored }, error: null });
  await sessionStorageAdapter.setItem(SESSION_STORAGE_KEY, JSON.stringify(stored));
});

afterEach(async () => {
  vi.clearAllMocks();
  await sessionStorageAdapter.removeItem(SESSION_STORAGE_KEY);
  await deleteCachedProfile('u1');
});

describe('the current user', () => {
  it('loads online and keeps the profile for the next offline boot', async () => {
    rpc.mockResolvedValue({ data: profile, error: null, status: 200 });
    await useCurrentUser.getState().reload();
    expect(useCurrentUser.getState()).toMatchObject({ status: 'signed-in', user: profile, offline: false });
    await vi.waitFor(async () => expect(await loadCachedProfile('u1')).toEqual(profile));
  });

  it('boots signed in from the cached session and profile when the network is down', async () => {
    await saveCachedProfile(profile);
    rpc.mockResolvedValue({ data: null, error: { message: 'TypeError: Failed to fetch', code: '' }, status: 0 });
    await useCurrentUser.getState().reload();
    expect(useCurrentUser.getState()).toMatchObject({ status: 'signed-in', user: profile, offline: true });
  });

  it('offline by the browser, boots from the cached session and profile without asking the server', async () => {
    await saveCachedProfile(profile);
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      await useCurrentUser.getState().reload();
    } finally {
      onLine.mockRestore();
    }
    expect(useCurrentUser.getState()).toMatchObject({ status: 'signed-in', user: profile, offline: true });
    expect(auth.getSession).not.toHaveBeenCalled();
    expect(rpc).not.toHaveBeenCalled();
  });

  it('boots offline with the session user when no profile was cached yet', async () => {
    auth.getSession.mockResolvedValue({
      data: { session: null },
      error: { name: 'AuthRetryableFetchError', message: 'Failed to fetch' },
    });
    await useCurrentUser.getState().reload();
    expect(useCurrentUser.getState()).toMatchObject({ status: 'signed-in', offline: true });
    expect(useCurrentUser.getState().user).toMatchObject({ id: 'u1', email: 'ada@example.com' });
  });

  it('signs out when there is no session', async () => {
    await saveCachedProfile(profile);
    auth.getSession.mockResolvedValue({ data: { session: null }, error: null });
    await useCurrentUser.getState().reload();
    expect(useCurrentUser.getState()).toMatchObject({ status: 'signed-out', user: null });
  });

  it('signs a visitor out from storage alone: no stored session, no supabase-js', async () => {
    await sessionStorageAdapter.removeItem(SESSION_STORAGE_KEY);
    await useCurrentUser.getState().reload();
    expect(useCurrentUser.getState()).toMatchObject({ status: 'signed-out', user: null });
    expect(auth.getSession).not.toHaveBeenCalled();
    expect(auth.onAuthStateChange).not.toHaveBeenCalled();
  });

  it('signs out when the server refuses the session, even with a cached profile', async () => {
    await saveCachedProfile(profile);
    rpc.mockResolvedValue({ data: null, error: { message: 'JWT expired', code: 'PGRST301' }, status: 401 });
    await useCurrentUser.getState().reload();
    expect(useCurrentUser.getState()).toMatchObject({ status: 'signed-out', user: null });
  });

  it('remembers the former username after a rename', async () => {
    rpc.mockResolvedValue({ data: profile, error: null, status: 200 });
    await useCurrentUser.getState().reload();
    useCurrentUser.getState().updateUser({ username: 'ada_l' });
    expect(useCurrentUser.getState()).toMatchObject({ formerUsername: 'ada', user: { username: 'ada_l' } });
  });
});
