// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { toLocalInput } from '../../../src/domain/event-times.ts';
import { PollDialog } from '../../../src/features/polls/poll-dialog.tsx';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

let mutate: ReturnType<typeof vi.fn>;
let onClose: ReturnType<typeof vi.fn>;

beforeEach(() => {
  mutate = vi.fn().mockResolvedValue({ id: 'm1' });
  onClose = vi.fn();
  useToasts.setState({ toasts: [] });
});
afterEach(cleanup);

function renderDialog(directoryId?: string) {
  const value = spyUserDb(mutate);
  render(
    <UserDbContext.Provider value={value}>
      <PollDialog directoryId={directoryId} timeZone="Europe/Berlin" onClose={onClose as () => void} />
    </UserDbContext.Provider>,
  );
}

const toastTexts = () => useToasts.getState().toasts.map((toast) => toast.message);

describe('the Create Poll dialog', () => {
  it('says inline, not in an alert box, that two options are needed, and sends nothing', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('Title'), 'Lunch?');
    await user.type(screen.getByLabelText('Option 1'), 'Pizza');
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please provide at least 2 voting options');
    expect(screen.getByLabelText('Option 2')).toHaveAttribute('aria-invalid', 'true');
    expect(mutate).not.toHaveBeenCalled();
    expect(alert).not.toHaveBeenCalled();
    alert.mockRestore();
  });

  it('shows every problem at once: title, options and a past deadline', async () => {
    const user = userEvent.setup();
    renderDialog();
    const past = toLocalInput(new Date(Date.now() - 3_600_000), 'Europe/Berlin');
    await user.type(screen.getByLabelText('Deadline (optional)'), past);
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    expect(await screen.findByText('Title is required.')).toBeInTheDocument();
    expect(screen.getByText('Please provide at least 2 voting options')).toBeInTheDocument();
    expect(screen.getByText('The deadline cannot be earlier than now.')).toBeInTheDocument();
    expect(mutate).not.toHaveBeenCalled();
  });

  it('adds option rows up to 6 and removes the optional ones', async () => {
    const user = userEvent.setup();
    renderDialog();
    expect(screen.queryByRole('button', { name: /Remove option/ })).not.toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add Option' });
    for (let i = 0; i < 4; i++) await user.click(add);
    expect(screen.getByLabelText('Option 6')).toBeInTheDocument();
    expect(add).toBeDisabled();
    await user.type(screen.getByLabelText('Option 3'), 'Three');
    await user.type(screen.getByLabelText('Option 4'), 'Four');
    await user.click(screen.getByRole('button', { name: 'Remove option 3' }));
    expect(screen.queryByLabelText('Option 6')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Option 3')).toHaveValue('Four');
    expect(add).toBeEnabled();
  });

  it("sends the poll, the deadline read in the user's zone, and closes", async () => {
    const user = userEvent.setup();
    renderDialog('d1');
    expect(screen.getByRole('dialog', { name: 'Create Team Poll' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Title'), ' Offsite ');
    await user.type(screen.getByLabelText('Description'), 'Where to?');
    await user.type(screen.getByLabelText('Option 1'), 'Lisbon');
    await user.type(screen.getByLabelText('Option 2'), ' Porto ');
    await user.click(screen.getByRole('button', { name: 'Add Option' }));
    await user.type(screen.getByLabelText('Deadline (optional)'), '2099-07-01T18:00');
    await user.click(screen.getByRole('button', { name: 'Create Team Poll' }));
    expect(mutate).toHaveBeenCalledWith(
      'poll.create',
      {
        id: expect.any(String),
        title: 'Offsite',
        description: 'Where to?',
        options: ['Lisbon', 'Porto'],
        // 18:00 in Berlin's summer time.
        deadline: '2099-07-01T16:00:00.000Z',
        directory_id: 'd1',
      },
      expect.any(Function),
    );
    expect(onClose).toHaveBeenCalled();
  });

  it('stays open when mutate refuses (it shows the reason itself)', async () => {
    mutate.mockResolvedValue(null);
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('Title'), 'Lunch?');
    await user.type(screen.getByLabelText('Option 1'), 'a');
    await user.type(screen.getByLabelText('Option 2'), 'b');
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    expect(mutate).toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(toastTexts()).toEqual([]);
  });

  it('toasts an unexpected failure and stays open', async () => {
    mutate.mockRejectedValue(new Error('IndexedDB is gone'));
    const user = userEvent.setup();
    renderDialog();
    await user.type(screen.getByLabelText('Title'), 'Lunch?');
    await user.type(screen.getByLabelText('Option 1'), 'a');
    await user.type(screen.getByLabelText('Option 2'), 'b');
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    expect(toastTexts()).toEqual(['Failed to create poll. Please try again.']);
    expect(onClose).not.toHaveBeenCalled();
  });
});
