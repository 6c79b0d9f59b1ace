// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { setDisplayLocale } from '../../../src/domain/date-format.ts';
import type { Tier } from '../../../src/domain/plans.ts';
import { EventDialog } from '../../../src/features/calendar/event-dialog.tsx';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

let mutate: ReturnType<typeof vi.fn>;
let onClose: ReturnType<typeof vi.fn>;

beforeEach(() => {
  mutate = vi.fn().mockResolvedValue({ id: 'm1' });
  onClose = vi.fn();
  useToasts.setState({ toasts: [] });
});
afterEach(() => {
  cleanup();
  setDisplayLocale('en-GB');
});

/** Picks a day in a date field (jsdom has no date picker to type into). */
const pickDay = (name: string, day: string) =>
  fireEvent.change(screen.getByLabelText(name), { target: { value: day } });

function renderDialog(
  tier: Tier,
  item: EventRow | null = null,
  screenName: 'calendar' | 'upcoming' = 'calendar',
  timeZone = 'UTC',
) {
  const value = spyUserDb(mutate);
  render(
    <MemoryRouter>
      <UserDbContext.Provider value={value}>
        <EventDialog item={item} tier={tier} timeZone={timeZone} screen={screenName} onClose={onClose as () => void} />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

const member: EventRow = {
  id: 'e1',
  title: 'Gym',
  description: null,
  starts_at: '2030-03-16T07:00:00.000Z',
  ends_at: '2030-03-16T08:00:00.000Z',
  owner_id: 'u1',
  is_task: false,
  priority: null,
  is_completed: false,
  series_id: 's1',
  recurrence_rule: 'weekly',
  recurrence_end_date: '2030-04-06T23:59:00.000Z',
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-01T00:00:00.000Z',
};

describe('the event/task dialog', () => {
  it('shows a Free user the Pro notice instead of Repeat', () => {
    renderDialog('free');
    expect(screen.getByText('Recurring events are a Pro feature.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/Upgrade');
    expect(screen.queryByLabelText('Rule')).not.toBeInTheDocument();
  });

  it('sets the end one hour after a new start for events, and equal to it for tasks', async () => {
    const user = userEvent.setup();
    renderDialog('pro');
    pickDay('Start date', '2030-05-01');
    await user.clear(screen.getByLabelText('Start time'));
    await user.type(screen.getByLabelText('Start time'), '10:00');
    expect(screen.getByLabelText('End date')).toHaveValue('2030-05-01');
    expect(screen.getByLabelText('End time')).toHaveValue('11:00');
    await user.click(screen.getByRole('switch', { name: 'This is a task' }));
    expect(screen.queryByLabelText('End date')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Due date (optional)')).toHaveValue('2030-05-01');
    expect(screen.getByLabelText('Priority')).toHaveValue('medium');
  });

  it("writes and reads the time in the user's locale: 12-hour in en-US, whatever the browser's own clock", async () => {
    setDisplayLocale('en-US');
    const user = userEvent.setup();
    renderDialog('pro', null, 'calendar', 'Europe/Berlin');
    await user.type(screen.getByLabelText('Title'), 'Review');
    pickDay('Start date', '2030-05-01');
    const time = screen.getByLabelText('Start time');
    expect(time).toHaveValue('9:00 AM');
    await user.clear(time);
    await user.type(time, '2:30 pm');
    await user.tab();
    expect(time).toHaveValue('2:30 PM');
    expect(screen.getByLabelText('End time')).toHaveValue('3:30 PM');
    await user.click(screen.getByRole('button', { name: 'Add Event' }));
    expect(mutate).toHaveBeenCalledWith(
      'event.create',
      expect.objectContaining({ starts_at: '2030-05-01T12:30:00.000Z', ends_at: '2030-05-01T13:30:00.000Z' }),
      expect.any(Function),
    );
  });

  it('refuses a time that is not one, before anything is sent', async () => {
    const user = userEvent.setup();
    renderDialog('pro');
    await user.type(screen.getByLabelText('Title'), 'Review');
    pickDay('Start date', '2030-05-01');
    await user.clear(screen.getByLabelText('Start time'));
    await user.type(screen.getByLabelText('Start time'), '25:99');
    await user.click(screen.getByRole('button', { name: 'Add Event' }));
    expect(await screen.findByText('Invalid date.')).toBeInTheDocument();
    expect(mutate).not.toHaveBeenCalled();
  });

  it('saves an all-day event as whole days in the user zone, with dates only', async () => {
    const user = userEvent.setup();
    renderDialog('pro', null, 'calendar', 'America/New_York');
    await user.type(screen.getByLabelText('Title'), 'Offsite');
    pickDay('Start date', '2030-11-02');
    await user.click(screen.getByRole('checkbox', { name: 'All day' }));
    expect(screen.queryByLabelText('Start time')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('End time')).not.toBeInTheDocument();
    pickDay('End date', '2030-11-03');
    await user.click(screen.getByRole('button', { name: 'Add Event' }));
    // Two days over the autumn change: midnight EDT to the midnight after the 3rd, EST.
    expect(mutate).toHaveBeenCalledWith(
      'event.create',
      expect.objectContaining({
        all_day: true,
        starts_at: '2030-11-02T04:00:00.000Z',
        ends_at: '2030-11-04T05:00:00.000Z',
      }),
      expect.any(Function),
    );
  });

  it('checks the title and the start before anything is sent', async () => {
    const user = userEvent.setup();
    renderDialog('pro');
    await user.click(screen.getByRole('button', { name: 'Add Event' }));
    expect(await screen.findByText('Title is required.')).toBeInTheDocument();
    expect(screen.getByText('Start is required for events.')).toBeInTheDocument();
    expect(mutate).not.toHaveBeenCalled();
  });

  it('saves a task without a date as due now, and closes', async () => {
    const user = userEvent.setup();
    renderDialog('free');
    await user.type(screen.getByLabelText('Title'), 'Call Anna');
    await user.click(screen.getByRole('switch', { name: 'This is a task' }));
    await user.selectOptions(screen.getByLabelText('Priority'), 'high');
    await user.click(screen.getByRole('button', { name: 'Add Task' }));
    expect(mutate).toHaveBeenCalledWith(
      'event.create',
      expect.objectContaining({ title: 'Call Anna', is_task: true, priority: 'high', starts_at: expect.any(String) }),
      expect.any(Function),
    );
    const args = mutate.mock.calls[0]![1] as { starts_at: string; ends_at: string };
    expect(args.ends_at).toBe(args.starts_at);
    expect(onClose).toHaveBeenCalled();
  });

  it('offers this event only or all events for a series member, warning before all', async () => {
    const user = userEvent.setup();
    renderDialog('pro', member);
    expect(screen.getByRole('radio', { name: 'Update this event only' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'This is a task' })).toBeDisabled();
    expect(screen.getByLabelText('Rule')).toBeDisabled();
    expect(screen.queryByText('This will delete the old series and create a new one.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Update all events in this series' }));
    expect(screen.getByText('This will delete the old series and create a new one.')).toBeInTheDocument();
    expect(screen.getByLabelText('Rule')).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(mutate).toHaveBeenCalledWith(
      'series.replace',
      expect.objectContaining({ old_series_id: 's1', rule: 'weekly', occurrences: expect.any(Array) }),
      expect.any(Function),
    );
    expect((mutate.mock.calls[0]![1] as { occurrences: unknown[] }).occurrences).toHaveLength(4);
  });

  it("says the product's failure text when saving fails, per screen, and stays open", async () => {
    mutate.mockRejectedValue(new Error('IndexedDB is gone'));
    const user = userEvent.setup();
    renderDialog('pro', { ...member, series_id: null, recurrence_rule: 'none', recurrence_end_date: null }, 'upcoming');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(useToasts.getState().toasts.map((toast) => toast.message)).toEqual([
      'Failed to save item. Please try again.',
    ]);
    expect(onClose).not.toHaveBeenCalled();
  });
});
