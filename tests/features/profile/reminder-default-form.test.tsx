// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { ProfilePage } from '../../../src/features/profile/profile-page.tsx';
import { ReminderDefaultForm } from '../../../src/features/profile/reminder-default-form.tsx';
import { NOTIFICATIONS_BLOCKED } from '../../../src/ui/notification-permission.ts';
import { makeProfileRow } from './profile-row.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

const rpc = vi.hoisted(() => vi.fn());
const auth = vi.hoisted(() => ({ getSession: vi.fn(), getUser: vi.fn(), updateUser: vi.fn() }));
vi.mock('../../../src/backend/supabase.ts', () => ({ supabase: { rpc, auth, functions: { invoke: vi.fn() } } }));

let requestPermission: ReturnType<typeof vi.fn>;
function stubNotifications(permission: NotificationPermission, answer: NotificationPermission = permission) {
  requestPermission = vi.fn().mockResolvedValue(answer);
  vi.stubGlobal('Notification', { permission, requestPermission });
}

beforeEach(() => stubNotifications('default', 'granted'));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the default reminder form', () => {
  it('shows the saved default, asks for permission when one is chosen, and saves it', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(true);
    render(<ReminderDefaultForm saved={null} onSave={onSave} />);
    const select = screen.getByLabelText('Default reminder');
    expect(select).toHaveDisplayValue('None');
    expect(screen.getByRole('button', { name: 'Save default reminder' })).toBeDisabled();
    await user.selectOptions(select, '30 minutes before');
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Save default reminder' }));
    expect(onSave).toHaveBeenCalledWith(30);
  });

  it('saves None as null without asking, and says when notifications are blocked', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(true);
    stubNotifications('default', 'denied');
    render(<ReminderDefaultForm saved={60} onSave={onSave} />);
    expect(screen.getByLabelText('Default reminder')).toHaveDisplayValue('1 hour before');
    await user.selectOptions(screen.getByLabelText('Default reminder'), 'None');
    expect(requestPermission).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Save default reminder' }));
    expect(onSave).toHaveBeenCalledWith(null);
    await user.selectOptions(screen.getByLabelText('Default reminder'), '1 day before');
    expect(await screen.findByText(NOTIFICATIONS_BLOCKED)).toBeInTheDocument();
  });
});

describe("the Profile screen's Reminders section", () => {
  let db: LinkboardDb;
  beforeEach(async () => {
    db = openUserDb('u1');
    const row = { ...makeProfileRow(), default_reminder_minutes: 15 as const };
    await db.user_profiles.put(row);
    useCurrentUser.setState({ status: 'signed-in', user: row });
  });
  afterEach(async () => {
    db.close();
    await deleteUserDb('u1');
  });

  it('shows the synced default and queues profile.update with the new one', async () => {
    const user = userEvent.setup();
    const mutate = vi.fn().mockResolvedValue({ id: 'm1' });
    render(
      <MemoryRouter>
        <UserDbContext.Provider value={spyUserDb(mutate, db)}>
          <ProfilePage />
        </UserDbContext.Provider>
      </MemoryRouter>,
    );
    const section = screen.getByRole('region', { name: 'Reminders' });
    const select = within(section).getByLabelText('Default reminder');
    await waitFor(() => expect(select).toHaveDisplayValue('15 minutes before'));
    await user.selectOptions(select, 'At time of event');
    await user.click(within(section).getByRole('button', { name: 'Save default reminder' }));
    expect(mutate).toHaveBeenCalledWith('profile.update', { default_reminder_minutes: 0 });
  });
});
