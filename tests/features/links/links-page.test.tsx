// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import type { DirectoryRow, LinkRow } from '../../../src/data/rows.ts';
import { UserDbContext, type UserDb } from '../../../src/data/user-db-context.ts';
import { LinksPage } from '../../../src/features/links/links-page.tsx';
import { shareLink } from '../../../src/features/links/link-actions.ts';
import { useToasts } from '../../../src/ui/toast-store.ts';

const stamp = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
let db: LinkboardDb;

function directory(id: string, fields: Partial<DirectoryRow>): DirectoryRow {
  return {
    id,
    name: id,
    description: null,
    color: 'blue',
    is_public: false,
    has_password: false,
    owner_id: 'u1',
    ...stamp,
    ...fields,
  } as DirectoryRow;
}

function link(i: number, directoryId: string): LinkRow {
  return {
    id: `l${i}`,
    directory_id: directoryId,
    url: `https://s${i}.example`,
    title: `Site ${i}`,
    notes: null,
    description: null,
    tags: [],
    is_favorite: false,
    created_by: 'u1',
    owner_id: 'u1',
    ...stamp,
  } as LinkRow;
}

beforeEach(async () => {
  db = openUserDb('u1');
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: 'u1', email: 'ada@example.com', username: 'ada', subscription_tier: 'free' } as never,
  });
  await db.link_directories.bulkPut([
    directory('d1', { name: 'Work', description: 'Daily tools', color: 'teal' as never }),
    directory('d2', { name: 'Shared', is_public: true, has_password: true, owner_id: 'u2' }),
  ]);
  await db.saved_links.bulkPut([
    ...Array.from({ length: 26 }, (_, i) => link(i, 'd1')),
    { ...link(99, 'd2'), owner_id: 'u2' },
  ]);
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb('u1');
});

function renderAt(path: string) {
  const value = { db, mutate: vi.fn() } as unknown as UserDb;
  render(
    <MemoryRouter initialEntries={[path]}>
      <UserDbContext.Provider value={value}>
        <Routes>
          <Route path="/Links/:username" element={<LinksPage />} />
          <Route path="/Links/:username/dir/:dirId" element={<LinksPage />} />
        </Routes>
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

describe('the Links screen', () => {
  it('shows directory cards with counts and badges, the Free badge and the warning above 25', async () => {
    renderAt('/Links/ada');
    const work = await screen.findByRole('button', { name: 'Open Work' });
    await waitFor(() => expect(work).toHaveTextContent('26 links'));
    expect(work).toHaveTextContent('Private');
    expect(screen.getByRole('button', { name: 'Open Shared' })).toHaveTextContent('1 link');
    expect(screen.getByRole('button', { name: 'Open Shared' })).toHaveTextContent('Password Protected');
    expect(screen.getByText('26/30 links')).toBeInTheDocument();
    expect(screen.getByText("You're using 26/30 links on the free plan")).toBeInTheDocument();
    // Only the owner edits a directory; Free users who own one get no New Directory button.
    expect(screen.getByRole('button', { name: 'Edit Work' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Shared' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Directory' })).not.toBeInTheDocument();
  });

  it('filters directories by name or description', async () => {
    const user = userEvent.setup();
    renderAt('/Links/ada');
    await screen.findByRole('button', { name: 'Open Work' });
    await user.type(screen.getByPlaceholderText('Search your links...'), 'daily');
    expect(await screen.findByRole('button', { name: 'Open Work' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open Shared' })).not.toBeInTheDocument();
  });

  it('shows a viewer a shared directory read only, with the Team Polls upsell', async () => {
    const user = userEvent.setup();
    await db.directory_members.put({
      id: 'm1',
      directory_id: 'd2',
      user_email: 'ada@example.com',
      role: 'viewer',
      inviter_id: 'u2',
      ...stamp,
    } as never);
    renderAt('/Links/ada/dir/d2');
    expect(await screen.findByRole('heading', { name: 'Shared' })).toBeInTheDocument();
    expect(screen.getByText('Organize your shared links')).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Site 99' });
    expect(screen.queryByRole('button', { name: 'Add Link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Team Polls' }));
    expect(screen.getByText('Unlock Team Polls')).toBeInTheDocument();
    expect(screen.getByText('Shared team voting boards are exclusive to the Team plan.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upgrade to Team Plan' })).toBeInTheDocument();
  });

  it('says a missing directory is not available', async () => {
    renderAt('/Links/ada/dir/nope');
    expect(await screen.findByText('This directory is not available')).toBeInTheDocument();
  });
});

describe('sharing a link', () => {
  it('uses the share sheet when there is one', async () => {
    const share = vi.fn().mockResolvedValue(undefined);
    Object.assign(navigator, { share });
    await shareLink({ title: 'A', url: 'https://a.example' });
    expect(share).toHaveBeenCalledWith({ title: 'A', url: 'https://a.example' });
    Object.assign(navigator, { share: undefined });
  });

  it("otherwise copies the url and says 'Link copied to clipboard!'", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await shareLink({ title: 'A', url: 'https://a.example' });
    expect(writeText).toHaveBeenCalledWith('https://a.example');
    expect(useToasts.getState().toasts.at(-1)?.message).toBe('Link copied to clipboard!');
  });
});
