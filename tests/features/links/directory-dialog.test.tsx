// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DirectoryRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { DirectoryDialog } from '../../../src/features/links/directory-dialog.tsx';
import { spyUserDb } from '../../support/spy-user-db.ts';
import { makeDirectory } from '../../support/builders.ts';

let mutate: ReturnType<typeof vi.fn>;
let onClose: ReturnType<typeof vi.fn>;

beforeEach(() => {
  mutate = vi.fn().mockResolvedValue({ id: 'm1' });
  onClose = vi.fn();
});
afterEach(cleanup);

function renderDialog(tier: Tier, directory: DirectoryRow | null = null) {
  const value = spyUserDb(mutate);
  render(
    <UserDbContext.Provider value={value}>
      <DirectoryDialog directory={directory} tier={tier} onClose={onClose as () => void} />
    </UserDbContext.Provider>,
  );
}

const protectedDir = makeDirectory({
  id: 'd1',
  name: 'Work',
  color: 'green',
  is_public: true,
  has_password: true,
  owner_id: 'u1',
});

describe('the Create/Edit Directory dialog', () => {
  it('requires a name', async () => {
    const user = userEvent.setup();
    renderDialog('free');
    await user.click(screen.getByRole('button', { name: 'Create Directory' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Name is required.');
    expect(mutate).not.toHaveBeenCalled();
  });

  it('creates with the chosen colour and offers six colours', async () => {
    const user = userEvent.setup();
    renderDialog('free');
    for (const color of ['blue', 'purple', 'green', 'orange', 'pink', 'indigo']) {
      expect(screen.getByRole('button', { name: color })).toBeInTheDocument();
    }
    await user.type(screen.getByLabelText('Name'), ' Reading ');
    await user.click(screen.getByRole('button', { name: 'purple' }));
    await user.click(screen.getByRole('button', { name: 'Create Directory' }));
    expect(mutate).toHaveBeenCalledWith(
      'directory.create',
      {
        id: expect.any(String),
        name: 'Reading',
        description: null,
        color: 'purple',
        is_public: false,
        password: null,
      },
      expect.any(Function),
    );
    expect(onClose).toHaveBeenCalled();
  });

  it('offers a password only on Pro and Team, for public directories', async () => {
    const user = userEvent.setup();
    renderDialog('free');
    await user.click(screen.getByRole('switch'));
    expect(screen.queryByLabelText('Password (optional)')).not.toBeInTheDocument();
    cleanup();
    renderDialog('team');
    expect(screen.queryByLabelText('Password (optional)')).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch'));
    await user.type(screen.getByLabelText('Name'), 'Team');
    await user.type(screen.getByLabelText('Password (optional)'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Create Directory' }));
    expect(mutate).toHaveBeenCalledWith(
      'directory.create',
      expect.objectContaining({ is_public: true, password: 'secret' }),
      expect.any(Function),
    );
  });

  it('clears the password when public is turned off', async () => {
    const user = userEvent.setup();
    renderDialog('pro', protectedDir);
    expect(screen.getByLabelText('Name')).toHaveValue('Work');
    await user.click(screen.getByRole('switch'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(mutate).toHaveBeenCalledWith(
      'directory.update',
      expect.objectContaining({ id: 'd1', is_public: false, password: null }),
      expect.any(Function),
    );
  });

  it('keeps the current password when left empty', async () => {
    const user = userEvent.setup();
    renderDialog('pro', protectedDir);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const args = mutate.mock.calls[0]?.[1] as Record<string, unknown>;
    expect(args).not.toHaveProperty('password');
    expect(args).toMatchObject({ is_public: true, color: 'green' });
  });
});
