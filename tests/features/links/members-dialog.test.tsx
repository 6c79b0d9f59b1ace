// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import type { DirectoryRow, MemberRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { LinksPage } from '../../../src/features/links/links-page.tsx';
import { MembersDialog } from '../../../src/features/links/members-dialog.tsx';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { lastToast, userDbValue } from './user-db-value.ts';

const stamp = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const mine: DirectoryRow = {
  id: 'd1',
  name: 'Reading',
  description: null,
  color: 'blue',
  is_public: false,
  has_password: false,
  owner_id: 'u1',
  ...stamp,
};
const theirs: DirectoryRow = { ...mine, id: 'd2', name: 'Team', owner_id: 'u2' };

function member(id: string, directoryId: string, email: string, role: MemberRow['role'] = 'viewer'): MemberRow {
  return { id, directory_id: directoryId, user_email: email, role, inviter_id: 'u1', txid: '7', ...stamp };
}

let db: LinkboardDb;
let onClose: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  db = openUserDb('u1');
  await db.link_directories.bulkPut([mine, theirs]);
  onClose = vi.fn();
  useToasts.setState({ toasts: [] });
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb('u1');
});

function renderDialog(tier: Tier, directory = mine, canManage = true) {
  render(
    <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier })}>
      <MembersDialog directory={directory} canManage={canManage} tier={tier} onClose={onClose as () => void} />
    </UserDbContext.Provider>,
  );
}

const queued = () => db.outbox.toArray();

describe('the Manage Members dialog', () => {
  it('says so when there are no members', async () => {
    renderDialog('free');
    expect(screen.getByRole('dialog', { name: 'Manage Members' })).toBeInTheDocument();
    expect(await screen.findByText('No members yet. Use Invite to add collaborators.')).toBeInTheDocument();
  });

  it('lists members by e-mail with their roles', async () => {
    await db.directory_members.bulkPut([
      member('m1', 'd1', 'bob@example.com'),
      member('m2', 'd1', 'amy@example.com', 'editor'),
      member('m3', 'd2', 'zed@example.com'),
    ]);
    renderDialog('pro');
    const list = await screen.findByRole('list', { name: 'Members' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('amy@example.com'),
      expect.stringContaining('bob@example.com'),
    ]);
    expect(screen.getByLabelText('Role for amy@example.com')).toHaveValue('editor');
    expect(screen.getByLabelText('Role for bob@example.com')).toHaveValue('viewer');
  });

  it('removes a member after the confirmation, and keeps them on Cancel', async () => {
    const user = userEvent.setup();
    await db.directory_members.put(member('m1', 'd1', 'bob@example.com'));
    renderDialog('free');
    await user.click(await screen.findByRole('button', { name: 'Remove bob@example.com' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove Member' });
    expect(confirm).toHaveTextContent('Remove bob@example.com from this directory? They will lose access.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await db.directory_members.get('m1')).toBeDefined();
    expect(await queued()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove bob@example.com' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Remove Member' })).getByRole('button', { name: 'Remove' }),
    );
    expect(await screen.findByText('No members yet. Use Invite to add collaborators.')).toBeInTheDocument();
    expect(await db.directory_members.get('m1')).toBeUndefined();
    expect((await queued()).map((row) => [row.name, row.args])).toEqual([['member.remove', { id: 'm1' }]]);
  });

  it('on Pro changes a Viewer to an Editor', async () => {
    const user = userEvent.setup();
    await db.directory_members.put(member('m1', 'd1', 'bob@example.com'));
    renderDialog('team');
    await user.selectOptions(await screen.findByLabelText('Role for bob@example.com'), 'Editor');
    await waitFor(() => expect(screen.getByLabelText('Role for bob@example.com')).toHaveValue('editor'));
    expect((await queued()).map((row) => [row.name, row.args])).toEqual([
      ['member.set_role', { id: 'm1', role: 'editor' }],
    ]);
  });

  it('on Free offers Editor only as a Pro feature, and a forced change is refused with the upgrade message', async () => {
    await db.directory_members.put(member('m1', 'd1', 'bob@example.com'));
    renderDialog('free');
    const select = await screen.findByLabelText('Role for bob@example.com');
    expect(within(select).getByRole('option', { name: 'Editor - Pro feature' })).toBeDisabled();
    expect(screen.getByText('Upgrade to Pro to invite editors who can add and manage links.')).toBeInTheDocument();
    fireEvent.change(select, { target: { value: 'editor' } });
    // Said inside the dialog, which keeps the focus; not in a toast under its overlay.
    const alert = await within(screen.getByRole('dialog', { name: 'Manage Members' })).findByRole('alert');
    expect(alert).toHaveTextContent('Upgrade to Pro to assign the Editor role.');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(lastToast()).toBeUndefined();
    expect(screen.getByLabelText('Role for bob@example.com')).toHaveValue('viewer');
    expect(await queued()).toEqual([]);
  });

  it('shows the product failure texts when the local database fails', async () => {
    const user = userEvent.setup();
    await db.directory_members.put(member('m1', 'd1', 'bob@example.com'));
    renderDialog('pro');
    const select = await screen.findByLabelText('Role for bob@example.com');
    db.close();
    await user.selectOptions(select, 'Editor');
    await waitFor(() => expect(lastToast()).toBe('Failed to update role. Please try again.'));
    await user.click(screen.getByRole('button', { name: 'Remove bob@example.com' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Remove Member' })).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(lastToast()).toBe('Failed to remove member. Please try again.'));
  });

  it("says 'Failed to load members' when the members cannot be read", async () => {
    db.close();
    renderDialog('pro');
    expect(await screen.findByText('Failed to load members')).toBeInTheDocument();
  });

  it('is read only for others: the notice, roles as text, Remove disabled', async () => {
    await db.directory_members.bulkPut([
      member('m1', 'd2', 'ada@example.com'),
      member('m2', 'd2', 'bob@example.com', 'editor'),
    ]);
    renderDialog('pro', theirs, false);
    expect(screen.getByText('Only the owner can manage members.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Remove bob@example.com' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove ada@example.com' })).toBeDisabled();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.getByText('bob@example.com').closest('li')).toHaveTextContent('Editor');
  });
});

describe('Members and Invite in the selected directory', () => {
  function renderAt(path: string) {
    useCurrentUser.setState({
      status: 'signed-in',
      user: { id: 'u1', email: 'ada@example.com', username: 'ada', subscription_tier: 'free' } as never,
    });
    render(
      <MemoryRouter initialEntries={[path]}>
        <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'free' })}>
          <Routes>
            <Route path="/Links/:username/dir/:dirId" element={<LinksPage />} />
          </Routes>
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
  }

  it('the owner gets Members and Invite, and Invite opens the dialog', async () => {
    const user = userEvent.setup();
    renderAt('/Links/ada/dir/d1');
    await user.click(await screen.findByRole('button', { name: 'Invite' }));
    expect(screen.getByRole('dialog', { name: 'Invite to Directory' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Members' }));
    expect(await screen.findByText('No members yet. Use Invite to add collaborators.')).toBeInTheDocument();
    expect(screen.queryByText('Only the owner can manage members.')).not.toBeInTheDocument();
  });

  it('a viewer of a shared directory gets Members read only and no Invite', async () => {
    const user = userEvent.setup();
    await db.directory_members.put(member('m1', 'd2', 'ada@example.com'));
    renderAt('/Links/ada/dir/d2');
    const members = await screen.findByRole('button', { name: 'Members' });
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Link' })).not.toBeInTheDocument();
    await user.click(members);
    expect(screen.getByText('Only the owner can manage members.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Remove ada@example.com' })).toBeDisabled();
  });

  it('an editor of a shared directory may add links but not invite or change the directory', async () => {
    await db.directory_members.put(member('m1', 'd2', 'ada@example.com', 'editor'));
    renderAt('/Links/ada/dir/d2');
    expect(await screen.findByRole('button', { name: 'Add Link' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Members' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Settings' })).not.toBeInTheDocument();
  });
});
