// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import type { DirectoryRow, LinkRow, MemberRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { TeamPollsSlot, type TeamPollsProps } from '../../../src/features/links/team-polls-slot.ts';
import { LinksPage } from '../../../src/features/links/links-page.tsx';
import { shareLink } from '../../../src/features/links/link-actions.ts';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { userDbValue } from './user-db-value.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';
import { makeDirectory, makeLink, makeMember } from '../../support/builders.ts';

const stamp = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
let db: LinkboardDb;

function directory(id: string, fields: Partial<DirectoryRow>): DirectoryRow {
  return makeDirectory({ id, name: id, owner_id: 'u1', ...stamp, ...fields });
}

function link(i: number, directoryId: string): LinkRow {
  return makeLink({
    id: `l${i}`,
    directory_id: directoryId,
    url: `https://s${i}.example`,
    title: `Site ${i}`,
    created_by: 'u1',
    owner_id: 'u1',
    ...stamp,
  });
}

beforeEach(async () => {
  db = openUserDb('u1');
  useCurrentUser.setState({
    status: 'signed-in',
    user: { id: 'u1', email: 'ada@example.com', username: 'ada', subscription_tier: 'free' } as never,
  });
  await db.link_directories.bulkPut([
    directory('d1', { name: 'Work', description: 'Daily tools', color: 'teal' as never }),
    // Shared with the user; its owner's plan not known yet (tests below set it).
    directory('d2', { name: 'Shared', is_public: true, has_password: true, owner_id: 'u2', owner_tier: undefined }),
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

function member(id: string, directoryId: string, email: string, role: 'viewer' | 'editor' = 'viewer'): MemberRow {
  return makeMember({ id, directory_id: directoryId, user_email: email, role, inviter_id: 'u1', ...stamp });
}

function Where() {
  return <output aria-label="Location">{useLocation().pathname}</output>;
}

/** Stands in for the polls feature's panel (the app fills the slot): shows what it was given. */
function TeamPollsProbe(props: TeamPollsProps) {
  return <p data-testid="team-polls">{JSON.stringify(props)}</p>;
}

function renderAt(path: string, value = spyUserDb(vi.fn(), db)) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <UserDbContext.Provider value={value}>
        <TeamPollsSlot.Provider value={(props) => <TeamPollsProbe {...props} />}>
          <Where />
          <Routes>
            <Route path="/Links/:username" element={<LinksPage />} />
            <Route path="/Links/:username/dir/:dirId" element={<LinksPage />} />
          </Routes>
        </TeamPollsSlot.Provider>
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

  it('opens the upsell, not the form, from Create New Directory at the Free limit', async () => {
    const user = userEvent.setup();
    renderAt('/Links/ada', userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'free' }));
    await screen.findByRole('button', { name: 'Open Work' });
    await user.click(screen.getByRole('button', { name: /Create New Directory/ }));
    const upsell = screen.getByRole('dialog', { name: 'Create Directory' });
    expect(upsell).toHaveTextContent('Upgrade to Pro to create more directories.');
    expect(within(upsell).queryByLabelText('Name')).not.toBeInTheDocument();
    expect(within(upsell).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/Upgrade/ada');
    await user.click(within(upsell).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the form that was opened under the limit, and says a refusal in it', async () => {
    const user = userEvent.setup();
    await db.link_directories.delete('d1');
    renderAt('/Links/ada', userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'free' }));
    await screen.findByRole('button', { name: 'Open Shared' });
    await user.click(screen.getByRole('button', { name: /Create New Directory/ }));
    const form = screen.getByRole('dialog', { name: 'Create Directory' });
    await user.type(within(form).getByLabelText('Name'), 'Second');
    // Another device's directory arrives while the form is open: the form stays.
    await db.link_directories.put(directory('d1', { name: 'Work' }));
    // (Behind the modal dialog, out of the accessibility tree.)
    await screen.findByRole('button', { name: 'Open Work', hidden: true });
    expect(within(form).getByLabelText('Name')).toHaveValue('Second');
    await user.click(within(form).getByRole('button', { name: 'Create Directory' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Upgrade to Pro to create more directories.');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(useToasts.getState().toasts).toEqual([]);
    // One Escape closes it.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await db.link_directories.count()).toBe(2);
  });

  it('filters directories by name or description', async () => {
    const user = userEvent.setup();
    renderAt('/Links/ada');
    await screen.findByRole('button', { name: 'Open Work' });
    await user.type(screen.getByPlaceholderText('Search your links...'), 'daily');
    expect(await screen.findByRole('button', { name: 'Open Work' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open Shared' })).not.toBeInTheDocument();
  });

  it("shows a viewer a shared directory read only, with the Team Polls tab on the owner's plan", async () => {
    const user = userEvent.setup();
    await db.directory_members.put({
      id: 'm1',
      directory_id: 'd2',
      user_email: 'ada@example.com',
      role: 'viewer',
      inviter_id: 'u2',
      ...stamp,
    } as never);
    await db.link_directories.update('d2', { owner_tier: 'team' });
    renderAt('/Links/ada/dir/d2');
    expect(await screen.findByRole('heading', { name: 'Shared' })).toBeInTheDocument();
    expect(screen.getByText('Organize your shared links')).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Site 99' });
    expect(screen.queryByRole('button', { name: 'Add Link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Team Polls' }));
    // The user is on Free; the directory's owner is on Team: the owner's plan decides.
    expect(JSON.parse(screen.getByTestId('team-polls').textContent ?? '{}')).toEqual({
      directoryId: 'd2',
      tier: 'team',
      username: 'ada',
      canCreate: true,
    });
  });

  it('says a missing directory is not available', async () => {
    renderAt('/Links/ada/dir/nope');
    expect(await screen.findByText('This directory is not available')).toBeInTheDocument();
  });
});

describe("a directory shared with the user: the owner's plan", () => {
  beforeEach(() => db.directory_members.put(member('m1', 'd2', 'ada@example.com', 'editor')));

  it('shows no plan badge of the member’s own while the owner’s plan is unknown', async () => {
    renderAt('/Links/ada/dir/d2');
    await screen.findByRole('link', { name: 'Site 99' });
    expect(screen.queryByTestId('link-limit-badge')).toBeNull();
    expect(screen.queryByText(/links on the free plan/)).toBeNull();
  });

  it('shows no badge when the owner is Pro', async () => {
    await db.link_directories.update('d2', { owner_tier: 'pro' });
    renderAt('/Links/ada/dir/d2');
    await screen.findByRole('link', { name: 'Site 99' });
    expect(screen.queryByTestId('link-limit-badge')).toBeNull();
  });

  it("shows the Free owner's count and warning, not the member's", async () => {
    await db.link_directories.update('d2', { owner_tier: 'free' });
    await db.saved_links.bulkPut(Array.from({ length: 26 }, (_, i) => ({ ...link(100 + i, 'd2'), owner_id: 'u2' })));
    renderAt('/Links/ada/dir/d2');
    expect(await screen.findByTestId('link-limit-badge')).toHaveTextContent('27/30 links');
    expect(screen.getByText("This directory's owner is using 27/30 links on the free plan")).toBeInTheDocument();
    expect(screen.queryByText('26/30 links')).toBeNull();
  });
});

describe('a shared directory’s card', () => {
  it('says Shared, and with whom, to the owner', async () => {
    await db.directory_members.put(member('m1', 'd1', 'bob@example.com'));
    renderAt('/Links/ada');
    const work = await screen.findByRole('button', { name: 'Open Work' });
    await waitFor(() => expect(work).toHaveTextContent('Shared'));
    expect(work).toHaveTextContent('with bob@example.com');
    expect(work).toHaveAccessibleDescription('Shared with bob@example.com');
  });

  it('gives a count for many members, with every address in the description and title', async () => {
    await db.directory_members.bulkPut([
      member('m1', 'd1', 'bob@example.com'),
      member('m2', 'd1', 'cy@example.com', 'editor'),
      member('m3', 'd1', 'di@example.com'),
    ]);
    renderAt('/Links/ada');
    const work = await screen.findByRole('button', { name: 'Open Work' });
    await waitFor(() => expect(work).toHaveTextContent('with 3 people'));
    const all = 'Shared with bob@example.com, cy@example.com, di@example.com';
    expect(work).toHaveAccessibleDescription(all);
    expect(within(work).getByText('with 3 people')).toHaveAttribute('title', all);
  });

  it('says Shared with you, with the role, to a member; nothing on an unshared card', async () => {
    await db.directory_members.put(member('m1', 'd2', 'ada@example.com', 'editor'));
    renderAt('/Links/ada');
    const shared = await screen.findByRole('button', { name: 'Open Shared' });
    await waitFor(() => expect(shared).toHaveTextContent('with you · Editor'));
    expect(shared).toHaveAccessibleDescription('Shared with you as Editor');
    expect(screen.getByRole('button', { name: 'Open Work' })).not.toHaveTextContent('Shared');
  });
});

describe('Settings of a directory', () => {
  it('deletes the directory after a confirmation, through directory.delete, and goes back to the grid', async () => {
    const user = userEvent.setup();
    renderAt('/Links/ada/dir/d1', userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'free' }));
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Directory' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Directory' });
    expect(confirm).toHaveTextContent(
      'Are you sure you want to delete "Work"? Its links will be deleted too. This action cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByLabelText('Location')).toHaveTextContent('/Links/ada'));
    expect(await db.link_directories.get('d1')).toBeUndefined();
    expect((await db.outbox.toArray()).map((row) => [row.name, row.args])).toEqual([
      ['directory.delete', { id: 'd1' }],
    ]);
  });

  it('keeps the directory when the confirmation is cancelled', async () => {
    const user = userEvent.setup();
    renderAt('/Links/ada/dir/d1', userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'free' }));
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Edit Directory' })).getByRole('button', { name: 'Delete' }),
    );
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Directory' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(screen.getByRole('dialog', { name: 'Edit Directory' })).toBeInTheDocument();
    expect(await db.link_directories.get('d1')).toBeDefined();
    expect(await db.outbox.count()).toBe(0);
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
