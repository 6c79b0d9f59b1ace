// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import type { DirectoryRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { InviteDialog } from '../../../src/features/links/invite-dialog.tsx';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { lastToast, userDbValue } from './user-db-value.ts';

const stamp = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
const directory: DirectoryRow = {
  id: 'd1',
  name: 'Reading',
  description: null,
  color: 'blue',
  is_public: false,
  has_password: false,
  owner_id: 'u1',
  ...stamp,
};
let db: LinkboardDb;
let onClose: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  db = openUserDb('u1');
  await db.link_directories.put(directory);
  onClose = vi.fn();
  useToasts.setState({ toasts: [] });
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb('u1');
});

function renderDialog(tier: Tier) {
  render(
    <UserDbContext.Provider value={userDbValue(db, { id: 'u1', email: 'ada@example.com', tier })}>
      <InviteDialog directory={directory} user={{ email: 'ada@example.com', tier }} onClose={onClose as () => void} />
    </UserDbContext.Provider>,
  );
}

const queued = () => db.outbox.toArray();

describe('the Invite to Directory dialog', () => {
  it('is titled, asks for an e-mail (type email, required) and a role that defaults to Viewer', () => {
    renderDialog('free');
    expect(screen.getByRole('dialog', { name: 'Invite to Directory' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    expect(screen.getByLabelText('Role')).toHaveValue('viewer');
  });

  it('shows validation errors inline and queues nothing', async () => {
    const user = userEvent.setup();
    renderDialog('pro');
    await user.click(screen.getByRole('button', { name: 'Send Invite' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Email is required.');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Invite' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ADA@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invite' }));
    expect(screen.getByRole('alert')).toHaveTextContent('You cannot invite yourself.');
    expect(await queued()).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('on Free shows Editor as a Pro feature that cannot be chosen, with the upgrade notice', async () => {
    const user = userEvent.setup();
    renderDialog('free');
    const editor = screen.getByRole('option', { name: 'Editor - Pro feature' });
    expect(editor).toBeDisabled();
    expect(screen.queryByRole('option', { name: 'Editor' })).not.toBeInTheDocument();
    expect(screen.getByText('Upgrade to Pro to invite editors who can add and manage links.')).toBeInTheDocument();
    // Even a forced change (not possible by pointer or keyboard) stays on Viewer.
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'editor' } });
    expect(screen.getByLabelText('Role')).toHaveValue('viewer');
    await user.type(screen.getByLabelText('Email'), 'bob@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invite' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect((await queued())[0]?.args).toMatchObject({ role: 'viewer' });
  });

  it('on Pro invites an Editor', async () => {
    const user = userEvent.setup();
    renderDialog('pro');
    expect(
      screen.queryByText('Upgrade to Pro to invite editors who can add and manage links.'),
    ).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Role'), 'Editor');
    await user.type(screen.getByLabelText('Email'), 'carol@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invite' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect((await queued())[0]).toMatchObject({
      name: 'member.invite',
      args: { user_email: 'carol@example.com', role: 'editor' },
    });
  });

  it('queues the invite, keeps its mail with the absolute link until it syncs, and says it was sent', async () => {
    const user = userEvent.setup();
    renderDialog('free');
    await user.type(screen.getByLabelText('Email'), '  Bob@Example.com ');
    await user.click(screen.getByRole('button', { name: 'Send Invite' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(lastToast()).toBe('Invitation sent to bob@example.com!');

    const [mutation] = await queued();
    expect(mutation).toMatchObject({
      name: 'member.invite',
      status: 'pending',
      args: { directory_id: 'd1', user_email: 'bob@example.com', role: 'viewer' },
    });
    const memberId = String(mutation?.args.id);
    expect(await db.directory_members.get(memberId)).toMatchObject({ user_email: 'bob@example.com', role: 'viewer' });
    // The server mails the invitation when it applies the invite (tests/db/invitation-mail.test.ts):
    // nothing about the mail is kept on the device.
    expect(await db.meta.where('key').startsWith('invitation-mail:').count()).toBe(0);
  });

  it("shows the mutator's message for a duplicate invite and stays open", async () => {
    const user = userEvent.setup();
    await db.directory_members.put({
      id: 'm1',
      directory_id: 'd1',
      user_email: 'bob@example.com',
      role: 'viewer',
      inviter_id: 'u1',
      ...stamp,
    });
    renderDialog('free');
    await user.type(screen.getByLabelText('Email'), 'bob@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Invite' }));
    // Said inside the dialog, which keeps the focus; not in a toast under its overlay.
    const alert = await within(screen.getByRole('dialog', { name: 'Invite to Directory' })).findByRole('alert');
    expect(alert).toHaveTextContent('This person is already a member of this directory.');
    // The focus moves in an effect after the alert renders: wait for it, not for a time.
    await waitFor(() => expect(alert).toHaveFocus());
    expect(lastToast()).toBeUndefined();
    expect(onClose).not.toHaveBeenCalled();
    expect(await queued()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Send Invite' })).toBeEnabled();
  });
});
