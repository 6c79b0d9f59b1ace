// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventRow } from '../../../src/data/rows.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { EventDialog } from '../../../src/features/calendar/event-dialog.tsx';
import { NOTIFICATIONS_BLOCKED } from '../../../src/ui/notification-permission.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';
import { makeEvent } from '../../support/builders.ts';

let mutate: ReturnType<typeof vi.fn>;
let requestPermission: ReturnType<typeof vi.fn>;

function stubNotifications(permission: NotificationPermission, answer: NotificationPermission = permission) {
  requestPermission = vi.fn().mockResolvedValue(answer);
  vi.stubGlobal('Notification', { permission, requestPermission });
}

beforeEach(() => {
  mutate = vi.fn().mockResolvedValue({ id: 'm1' });
  stubNotifications('default', 'granted');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDialog(item: EventRow | null, defaultReminder: number | null = null) {
  const value = spyUserDb(mutate);
  render(
    <MemoryRouter>
      <UserDbContext.Provider value={value}>
        <EventDialog
          item={item}
          tier="pro"
          timeZone="UTC"
          screen="calendar"
          defaultReminder={defaultReminder}
          onClose={() => undefined}
        />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

const saved = makeEvent({
  id: 'e1',
  title: 'Dentist',
  starts_at: '2030-03-16T07:00:00.000Z',
  ends_at: '2030-03-16T08:00:00.000Z',
  owner_id: 'u1',
  reminder_minutes: 60,
});

describe("the event dialog's Reminder select", () => {
  it("offers None to 1 day before; a new item starts with the profile's default", async () => {
    const user = userEvent.setup();
    renderDialog(null, 15);
    const select = screen.getByLabelText('Reminder');
    expect(select).toHaveDisplayValue('15 minutes before');
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'None',
      'At time of event',
      '5 minutes before',
      '15 minutes before',
      '30 minutes before',
      '1 hour before',
      '1 day before',
    ]);
    // The default alone asks for nothing.
    expect(requestPermission).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText('Title'), 'Standup');
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2030-05-01' } });
    await user.selectOptions(select, '5 minutes before');
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Add Event' }));
    expect(mutate).toHaveBeenCalledWith(
      'event.create',
      expect.objectContaining({ reminder_minutes: 5 }),
      expect.any(Function),
    );
  });

  it("shows an item's reminder and sends None as null; choosing None asks nothing", async () => {
    const user = userEvent.setup();
    renderDialog(saved, 15);
    expect(screen.getByLabelText('Reminder')).toHaveDisplayValue('1 hour before');
    await user.selectOptions(screen.getByLabelText('Reminder'), 'None');
    expect(requestPermission).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(mutate).toHaveBeenCalledWith(
      'event.update',
      expect.objectContaining({ id: 'e1', reminder_minutes: null }),
      expect.any(Function),
    );
  });

  it('says notifications are blocked when the browser refuses them, and asks no more once denied', async () => {
    const user = userEvent.setup();
    stubNotifications('default', 'denied');
    renderDialog(null);
    await user.selectOptions(screen.getByLabelText('Reminder'), '1 day before');
    expect(await screen.findByText(NOTIFICATIONS_BLOCKED)).toBeInTheDocument();
    cleanup();
    stubNotifications('denied');
    renderDialog(null);
    await user.selectOptions(screen.getByLabelText('Reminder'), 'At time of event');
    expect(await screen.findByText(NOTIFICATIONS_BLOCKED)).toBeInTheDocument();
    expect(requestPermission).not.toHaveBeenCalled();
  });
});
