/**
 * The Upgrade screen as the app mounts it, for its tests: a fake-indexeddb user database holding
 * the synced profile row, the router, the app's 'pull now' slot (a spy), and the billing calls'
 * stand-ins (the test file mocks src/backend/supabase.ts with `backend`).
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, expect, vi, type Mock } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import type { UserProfileRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { RequestSyncSlot } from '../../../src/features/billing/request-sync-slot.ts';
import { UpgradePage } from '../../../src/features/billing/upgrade-page.tsx';
import { makeProfileRow } from '../profile/profile-row.ts';
import { goOnline, stubBilling, type StubbedBilling } from './billing-stubs.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

export const row = (tier: Tier) => makeProfileRow({ subscription_tier: tier });

export interface UpgradeHarness {
  readonly db: LinkboardDb;
  readonly billing: StubbedBilling;
  readonly requestSync: Mock;
  renderPage(
    tier: Tier,
    path?: string,
    overrides?: Partial<UserProfileRow>,
  ): Promise<ReturnType<typeof createMemoryRouter>>;
}

/** Registers the setup and teardown of each test; call once at the top of a test file. */
export function upgradeHarness(backend: { invoke: Mock; getSession: Mock }): UpgradeHarness {
  let db: LinkboardDb;
  let billing: StubbedBilling;
  const requestSync = vi.fn();

  beforeEach(() => {
    db = openUserDb('u1');
    requestSync.mockReset();
    sessionStorage.clear();
    billing = stubBilling(backend);
    useCurrentUser.setState({ status: 'signed-in', user: { ...row('free') } });
  });

  afterEach(async () => {
    cleanup();
    goOnline();
    vi.unstubAllGlobals();
    db.close();
    await deleteUserDb('u1');
  });

  async function renderPage(tier: Tier, path = '/Upgrade/ada', overrides: Partial<UserProfileRow> = {}) {
    await db.user_profiles.put({ ...row(tier), ...overrides });
    const router = createMemoryRouter([{ path: '/Upgrade/:username', element: <UpgradePage /> }], {
      initialEntries: [path],
    });
    render(
      <UserDbContext.Provider value={spyUserDb(vi.fn(), db)}>
        <RequestSyncSlot.Provider value={requestSync}>
          <RouterProvider router={router} />
        </RequestSyncSlot.Provider>
      </UserDbContext.Provider>,
    );
    // The plan comes from the synced profile row.
    await waitFor(() =>
      expect(
        screen.getByText(`You are on the ${tier[0]!.toUpperCase()}${tier.slice(1)} Plan.`, { exact: false }),
      ).toBeInTheDocument(),
    );
    return router;
  }

  return {
    get db() {
      return db;
    },
    get billing() {
      return billing;
    },
    requestSync,
    renderPage,
  };
}
