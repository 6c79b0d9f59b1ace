// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fillImportBookmarks, fillTransfer } from '../../src/app/slots.tsx';
import { useCurrentUser } from '../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../src/data/db.ts';
import { UserDbContext } from '../../src/data/user-db-context.ts';
import { ImportBookmarksSlot } from '../../src/features/links/import-bookmarks-slot.ts';
import { LinksPage } from '../../src/features/links/links-page.tsx';
import { ProfilePage } from '../../src/features/profile/profile-page.tsx';
import { TransferSlot } from '../../src/features/profile/transfer-slot.ts';
import { userDbValue } from '../features/links/user-db-value.ts';

const auth = vi.hoisted(() => ({
  getSession: vi.fn(async () => ({ data: { session: null }, error: null })),
  getUser: vi.fn(async () => ({ data: { user: null }, error: null })),
}));
vi.mock('../../src/backend/supabase.ts', () => ({ supabase: { rpc: vi.fn(), auth, functions: { invoke: vi.fn() } } }));

let db: LinkboardDb;
beforeEach(() => {
  db = openUserDb('u1');
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: 'u1', email: 'ada@example.com', username: 'ada', subscription_tier: 'free' } as never,
  });
});
afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb('u1');
});

const value = () => userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'free' });

describe("the import's entry points", () => {
  it("Profile: 'Import and export' holds 'Import bookmarks' and the exports", async () => {
    render(
      <MemoryRouter>
        <UserDbContext.Provider value={value()}>
          <TransferSlot.Provider value={fillTransfer}>
            <ProfilePage />
          </TransferSlot.Provider>
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    const section = screen.getByRole('region', { name: 'Import and export' });
    expect(await within(section).findByRole('button', { name: 'Export everything (JSON)' })).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Import bookmarks' }));
    expect(await screen.findByRole('dialog', { name: 'Import bookmarks' })).toBeInTheDocument();
  });

  it("My Links with no links yet offers 'Import bookmarks'", async () => {
    render(
      <MemoryRouter>
        <UserDbContext.Provider value={value()}>
          <ImportBookmarksSlot.Provider value={fillImportBookmarks}>
            <LinksPage />
          </ImportBookmarksSlot.Provider>
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Import bookmarks' }));
    expect(await screen.findByText('Bookmarks file')).toBeInTheDocument();
  });

  it('without the slots, neither shows', async () => {
    render(
      <MemoryRouter>
        <UserDbContext.Provider value={value()}>
          <ProfilePage />
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Subscription' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Import and export' })).not.toBeInTheDocument();
  });
});
