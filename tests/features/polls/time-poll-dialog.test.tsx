// @vitest-environment jsdom
/** The poll dialog's 'Find a time' kind (docs/product.md, Find a time). */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { setDisplayLocale } from '../../../src/domain/date-format.ts';
import { PollDialog } from '../../../src/features/polls/poll-dialog.tsx';
import { spyUserDb } from '../../support/spy-user-db.ts';

let mutate: ReturnType<typeof vi.fn>;
let onClose: ReturnType<typeof vi.fn>;

beforeEach(() => {
  setDisplayLocale('en-GB');
  mutate = vi.fn().mockResolvedValue({ id: 'm1' });
  onClose = vi.fn();
});
afterEach(() => {
  cleanup();
  setDisplayLocale(undefined);
});

function renderDialog(directoryId?: string) {
  render(
    <UserDbContext.Provider value={spyUserDb(mutate)}>
      <PollDialog directoryId={directoryId} timeZone="Europe/Berlin" onClose={onClose as () => void} />
    </UserDbContext.Provider>,
  );
}

describe("the poll dialog's Find a time", () => {
  it("offers 'Options' and 'Find a time'; Options is the poll of before", async () => {
    const user = userEvent.setup();
    renderDialog();
    expect(screen.getByRole('radio', { name: 'Options' })).toBeChecked();
    expect(screen.getByLabelText('Option 1')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Find a time' }));
    expect(screen.queryByLabelText('Option 1')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Slot 1 date')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Time slots' })).toBeInTheDocument();
  });

  it('says what is wrong with the slots, and sends nothing', async () => {
    const user = userEvent.setup();
    renderDialog();
    await user.click(screen.getByRole('radio', { name: 'Find a time' }));
    await user.type(screen.getByLabelText('Title'), 'Sync');
    await user.type(screen.getByLabelText('Slot 1 date'), '2030-05-04');
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    expect(
      await screen.findByText('A time slot must start at a valid time and last from 15 minutes to 24 hours.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Slot 1 time')).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Remove slot 2' }));
    await user.type(screen.getByLabelText('Slot 1 time'), '9:30');
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    expect(await screen.findByText('Please provide at least 2 time slots')).toBeInTheDocument();
    expect(mutate).not.toHaveBeenCalled();
  });

  it("adds slots up to 30, and sends them read in the creator's zone, earliest first", async () => {
    const user = userEvent.setup();
    renderDialog('d1');
    await user.click(screen.getByRole('radio', { name: 'Find a time' }));
    const add = screen.getByRole('button', { name: 'Add Slot' });
    for (let i = 0; i < 28; i++) await user.click(add);
    expect(screen.getByLabelText('Slot 30 date')).toBeInTheDocument();
    expect(add).toBeDisabled();
    for (let i = 30; i > 2; i--) await user.click(screen.getByRole('button', { name: `Remove slot ${i}` }));
    await user.type(screen.getByLabelText('Title'), ' Planning ');
    await user.type(screen.getByLabelText('Slot 1 date'), '2030-05-04');
    await user.type(screen.getByLabelText('Slot 1 time'), '14:00');
    await user.selectOptions(screen.getByLabelText('Slot 1 length'), '90 min');
    await user.type(screen.getByLabelText('Slot 2 date'), '2030-05-03');
    await user.click(screen.getAllByLabelText('All day')[1]!);
    expect(screen.getByLabelText('Slot 2 time')).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Create Team Poll' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    const [name, args] = mutate.mock.calls[0] as [string, Record<string, unknown>];
    expect(name).toBe('poll.create_time');
    expect(args).toMatchObject({
      title: 'Planning',
      description: null,
      deadline: null,
      directory_id: 'd1',
      time_zone: 'Europe/Berlin',
      slots: [
        { id: expect.any(String), day: '2030-05-03' },
        { id: expect.any(String), start: '2030-05-04T12:00:00.000Z', minutes: 90 },
      ],
    });
  });
});
