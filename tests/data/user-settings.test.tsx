// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { renderHook, waitFor } from '@testing-library/react';
import { expect, it } from 'vitest';
import { useUserSettings } from '../../src/data/queries/profile.ts';
import { freshDb } from './helpers.ts';
import { ME } from '../support/builders.ts';

const row = {
  id: ME,
  email: 'me@example.com',
  full_name: '',
  username: 'me',
  bio: '',
  subscription_tier: 'free' as const,
  time_zone: 'Europe/Berlin',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
};

it('reads the plan from the local profile row unless the fetched profile changed after it', async () => {
  const db = freshDb();
  await db.user_profiles.put(row);
  // An upgrade the device has not pulled yet: the fetched profile is newer, so Pro on every screen.
  const upgraded = { subscription_tier: 'pro', time_zone: null, updated_at: '2026-11-25T09:00:00Z' };
  const fresher = renderHook(() => useUserSettings(db, upgraded));
  await waitFor(() => expect(fresher.result.current.profile).toBeTruthy());
  expect(fresher.result.current.tier).toBe('pro');
  // A field the fetched profile lacks still comes from the row.
  expect(fresher.result.current.timeZone).toBe('Europe/Berlin');
  // An older fetched profile (the row has a later change, from another device) loses to the row.
  const stale = renderHook(() => useUserSettings(db, { subscription_tier: 'pro', updated_at: '2026-11-19T00:00:00Z' }));
  await waitFor(() => expect(stale.result.current.profile).toBeTruthy());
  expect(stale.result.current.tier).toBe('free');
  // Without a time on either side, the row wins, as before.
  const untimed = renderHook(() => useUserSettings(db, { subscription_tier: 'pro' }));
  await waitFor(() => expect(untimed.result.current.profile).toBeTruthy());
  expect(untimed.result.current.tier).toBe('free');
});
