// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { EventDialog } from '../../../src/features/calendar/event-dialog.tsx';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

const LIMIT = 'Upgrade to Pro to create more than 10 events per month.';

let onClose: ReturnType<typeof vi.fn>;

beforeEach(() => {
  onClose = vi.fn();
  useToasts.setState({ toasts: [] });
});
afterEach(cleanup);

/** The dialog on a mutate that refuses as the mutators do at the limit: said to onRefused, null answered. */
function renderDialog(eventLimit: boolean) {
  const mutate = vi.fn(async (_name: string, _args: unknown, onRefused?: (message: string) => void) => {
    onRefused?.(LIMIT);
    return null;
  });
  const value = spyUserDb(mutate);
  render(
    <MemoryRouter>
      <UserDbContext.Provider value={value}>
        <EventDialog
          item={null}
          tier="free"
          timeZone="UTC"
          screen="calendar"
          eventLimit={
            eventLimit ? { message: LIMIT, upgradeTo: '/Upgrade/ada', note: 'You can still add tasks.' } : null
          }
          onClose={onClose as () => void}
        />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
  return mutate;
}

describe('the event dialog at the Free events limit', () => {
  it('says the limit before anything is filled in, for an event but not for a task', async () => {
    const user = userEvent.setup();
    renderDialog(true);
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(LIMIT);
    expect(notice).toHaveTextContent('You can still add tasks.');
    expect(within(notice).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/Upgrade/ada');
    await user.click(screen.getByRole('switch', { name: 'This is a task' }));
    expect(screen.queryByText(LIMIT)).not.toBeInTheDocument();
  });

  it('says a refused save inside the dialog, keeps the focus there, and closes on one Escape', async () => {
    const user = userEvent.setup();
    const mutate = renderDialog(false);
    await user.type(screen.getByLabelText('Title'), 'Standup');
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2099-07-01' } });
    await user.clear(screen.getByLabelText('Start time'));
    await user.type(screen.getByLabelText('Start time'), '09:00');
    await user.click(screen.getByRole('button', { name: 'Add Event' }));
    expect(mutate).toHaveBeenCalledTimes(1);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(LIMIT);
    expect(screen.getByRole('dialog')).toContainElement(alert);
    await waitFor(() => expect(alert).toHaveFocus());
    expect(useToasts.getState().toasts).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
