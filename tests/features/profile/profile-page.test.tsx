// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { deleteUserDb, openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { UserDbContext } from '../../../src/data/user-db-context.ts';
import { useAuthEmailStore } from '../../../src/features/profile/auth-email.ts';
import { ProfilePage } from '../../../src/features/profile/profile-page.tsx';
import { PORTAL_OFFLINE } from '../../../src/features/profile/subscription-card.tsx';
import { PORTAL_FAILED, PORTAL_SIGN_IN } from '../../../src/backend/billing.ts';
import { useToasts } from '../../../src/ui/toast-store.ts';
import { goOffline, goOnline, stubBilling, type StubbedBilling } from '../billing/billing-stubs.ts';
import { userDbValue } from '../links/user-db-value.ts';
import { makeProfileRow } from './profile-row.ts';
import { spyUserDb } from '../../support/spy-user-db.ts';

const rpc = vi.hoisted(() => vi.fn());
const auth = vi.hoisted(() => ({ getSession: vi.fn(), getUser: vi.fn(), updateUser: vi.fn() }));
const functions = vi.hoisted(() => ({ invoke: vi.fn() }));
vi.mock('../../../src/backend/supabase.ts', () => ({ supabase: { rpc, auth, functions } }));

const row = makeProfileRow({ bio: 'Engines' });

let db: LinkboardDb;
let mutate: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  db = openUserDb('u1');
  await db.user_profiles.put(row);
  mutate = vi.fn().mockResolvedValue({ id: 'm1' });
  rpc.mockReset();
  rpc.mockResolvedValue({ data: true, error: null });
  useToasts.setState({ toasts: [] });
  useAuthEmailStore.setState({ info: null });
  vi.clearAllMocks();
  const account = { id: 'u1', email: 'ada@example.com', email_confirmed_at: '2026-01-01T00:00:00Z' };
  auth.getSession.mockResolvedValue({ data: { session: { user: account } }, error: null });
  auth.getUser.mockResolvedValue({ data: { user: account }, error: null });
  auth.updateUser.mockResolvedValue({ data: { user: account }, error: null });
  useCurrentUser.setState({ status: 'signed-in', user: { ...row, subscription_tier: 'free' } });
});

afterEach(async () => {
  cleanup();
  db.close();
  await deleteUserDb('u1');
});

function renderPage(value = spyUserDb(mutate, db)) {
  render(
    <MemoryRouter>
      <UserDbContext.Provider value={value}>
        <ProfilePage />
      </UserDbContext.Provider>
    </MemoryRouter>,
  );
}

describe('the profile screen', () => {
  it('shows the saved username, its public URL and the bio', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByLabelText('Username')).toHaveValue('ada'));
    expect(screen.getByLabelText('Bio')).toHaveValue('Engines');
    // docs/product.md, Profile: origin plus username, and the address opens the public profile (the /:username route).
    const url = screen.getByRole('link', { name: `${location.origin}/ada` });
    expect(url).toHaveAttribute('href', `${location.origin}/ada`);
    expect(url).toHaveAttribute('target', '_blank');
  });

  it("links a username that is also an app path (such as 'links') to /PublicProfile/{username}", async () => {
    await db.user_profiles.update('u1', { username: 'links' });
    renderPage();
    const url = await screen.findByRole('link', { name: `${location.origin}/PublicProfile/links` });
    expect(url).toHaveAttribute('href', `${location.origin}/PublicProfile/links`);
  });

  it('keeps only allowed characters in the username, as at sign-up', async () => {
    const user = userEvent.setup();
    renderPage();
    const input = await screen.findByLabelText('Username');
    await user.clear(input);
    await user.type(input, 'Ada Byron!');
    expect(input).toHaveValue('adabyron');
    // A preview only: that address opens nothing until the username is saved.
    expect(screen.getByText(`${location.origin}/adabyron`)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: `${location.origin}/adabyron` })).toBeNull();
  });

  it('refuses a short username without saving', async () => {
    const user = userEvent.setup();
    renderPage();
    const input = await screen.findByLabelText('Username');
    await user.clear(input);
    await user.type(input, 'ab');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please choose a username (min 3 chars).');
    expect(mutate).not.toHaveBeenCalled();
  });

  it('saves username and bio through mutate', async () => {
    const user = userEvent.setup();
    renderPage();
    const bio = await screen.findByLabelText('Bio');
    await waitFor(() => expect(bio).toHaveValue('Engines'));
    await user.clear(bio);
    await user.type(bio, 'Analytical engines');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(mutate).toHaveBeenCalledWith('profile.update', { username: 'ada', bio: 'Analytical engines' });
  });

  it('shows the saved value again when the change was not kept (refused or restored)', async () => {
    mutate.mockResolvedValue(null);
    const user = userEvent.setup();
    renderPage();
    const bio = await screen.findByLabelText('Bio');
    await waitFor(() => expect(bio).toHaveValue('Engines'));
    await user.clear(bio);
    await user.type(bio, 'Draft');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    // A refused save keeps the draft for the user to fix.
    expect(bio).toHaveValue('Draft');

    mutate.mockResolvedValue({ id: 'm2' });
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    // Saved: the field shows the row again; a server rejection later restores the row live.
    await waitFor(() => expect(bio).toHaveValue('Engines'));
    await db.user_profiles.update('u1', { bio: 'Restored by the server' });
    await waitFor(() => expect(bio).toHaveValue('Restored by the server'));
  });

  it('offers the upgrade for the plan', async () => {
    renderPage();
    expect(await screen.findByText('Free Plan')).toBeInTheDocument();
    const subscription = () => within(screen.getByRole('region', { name: 'Subscription' }));
    expect(subscription().getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/Upgrade/ada');
    expect(screen.queryByRole('button', { name: 'Manage or Downgrade Plan' })).toBeNull();
    cleanup();
    await db.user_profiles.update('u1', { subscription_tier: 'pro' });
    renderPage();
    expect(await screen.findByRole('link', { name: 'Upgrade to Team' })).toHaveAttribute('href', '/Upgrade/ada');
    // docs/product.md, Profile: managing the plan opens the billing portal, not the Upgrade screen.
    expect(screen.getByRole('button', { name: 'Manage or Downgrade Plan' })).toBeEnabled();
    expect(screen.queryByRole('link', { name: 'Manage or Downgrade Plan' })).toBeNull();
    cleanup();
    await db.user_profiles.update('u1', { subscription_tier: 'team' });
    renderPage();
    expect(await screen.findByText('Team Plan')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage or Downgrade Plan' })).toBeInTheDocument();
    expect(subscription().queryByRole('link', { name: /Upgrade/ })).toBeNull();
  });
});

describe("the Subscription card's 'Manage or Downgrade Plan' (docs/product.md, Profile)", () => {
  let billing: StubbedBilling;
  const manage = () => screen.findByRole('button', { name: /Manage or Downgrade Plan|Opening billing portal/ });

  beforeEach(async () => {
    billing = stubBilling({ invoke: functions.invoke, getSession: auth.getSession });
    await db.user_profiles.update('u1', { subscription_tier: 'pro' });
  });

  afterEach(() => {
    goOnline();
    vi.unstubAllGlobals();
  });

  it('opens the billing portal for the account, coming back to the profile; one call on a double click', async () => {
    const user = userEvent.setup();
    const answer = billing.hold();
    renderPage();
    await user.dblClick(await manage());
    expect(await manage()).toHaveTextContent('Opening billing portal...');
    expect(await manage()).toBeDisabled();
    answer({ url: 'https://billing.example/portal' });
    await waitFor(() => expect(billing.assign).toHaveBeenCalledWith('https://billing.example/portal'));
    expect(functions.invoke).toHaveBeenCalledTimes(1);
    expect(functions.invoke).toHaveBeenCalledWith('billing-portal', {
      body: { email: 'ada@example.com', returnUrl: `${location.origin}/Profile/ada` },
    });
  });

  it("says 'Please sign in to manage billing.' without a session, and sends nothing", async () => {
    const user = userEvent.setup();
    billing.signOut();
    renderPage();
    await user.click(await manage());
    expect(await screen.findByRole('alert')).toHaveTextContent(PORTAL_SIGN_IN);
    expect(functions.invoke).not.toHaveBeenCalled();
  });

  it("says the product's portal error for a non-OK answer or no url, and lets the user try again", async () => {
    const user = userEvent.setup();
    billing.fail(404, { error: 'No subscription' });
    renderPage();
    await user.click(await manage());
    expect(await screen.findByRole('alert')).toHaveTextContent(PORTAL_FAILED);
    billing.answer({});
    await user.click(await manage());
    await waitFor(() => expect(functions.invoke).toHaveBeenCalledTimes(2));
    expect(await screen.findByRole('alert')).toHaveTextContent(PORTAL_FAILED);
    expect(billing.assign).not.toHaveBeenCalled();
    expect(await manage()).toBeEnabled();
  });

  it('offline: the button is disabled and says why', async () => {
    goOffline();
    renderPage();
    expect(await manage()).toBeDisabled();
    expect(screen.getByText(PORTAL_OFFLINE)).toBeInTheDocument();
    // The upgrade link still opens the Upgrade screen, which compares the plans offline.
    expect(screen.getByRole('link', { name: 'Upgrade to Team' })).toBeInTheDocument();
    act(() => goOnline());
    expect(await manage()).toBeEnabled();
    expect(screen.queryByText(PORTAL_OFFLINE)).toBeNull();
  });
});

describe('a username change, on the real local database and mutators', () => {
  const toasts = () => useToasts.getState().toasts.map((toast) => toast.message);
  const real = () => userDbValue(db, { id: 'u1', email: 'ada@example.com', tier: 'free' });

  async function rename(to: string) {
    const user = userEvent.setup();
    renderPage(real());
    const input = await screen.findByLabelText('Username');
    await waitFor(() => expect(input).toHaveValue('ada'));
    await user.clear(input);
    await user.type(input, to);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
  }

  /** What the sync engine does with the push answer: the row leaves the outbox, refused rows are restored. */
  async function serverAnswers(status: 'applied' | 'rejected') {
    const [queued] = await db.outbox.toArray();
    await db.transaction('rw', db.outbox, db.user_profiles, async () => {
      await db.outbox.where('id').equals(queued!.id).delete();
      if (status === 'rejected') await db.user_profiles.put(row);
    });
    if (status === 'rejected')
      useToasts.getState().push('Failed to save profile. Your username might be taken.', 'error');
  }

  it("shows only the error when the server refuses it, never 'Profile saved.' first", async () => {
    await rename('grace');
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect(rpc).toHaveBeenCalledWith('username_available', { p_username: 'grace' });
    expect(toasts()).toEqual([]);
    await serverAnswers('rejected');
    await waitFor(() => expect(screen.getByLabelText('Username')).toHaveValue('ada'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toasts()).toEqual(['Failed to save profile. Your username might be taken.']);
  });

  it("says 'Profile saved.' once the server kept it", async () => {
    await rename('grace');
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect(toasts()).toEqual([]);
    await serverAnswers('applied');
    await waitFor(() => expect(toasts()).toEqual(['Profile saved.']));
  });

  it('refuses a username the server says is taken, without queuing anything', async () => {
    rpc.mockResolvedValue({ data: false, error: null });
    await rename('grace');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save profile. Your username might be taken.');
    expect(await db.outbox.count()).toBe(0);
    expect((await db.user_profiles.get('u1'))?.username).toBe('ada');
    expect(screen.getByLabelText('Username')).toHaveValue('grace');
    expect(toasts()).toEqual([]);
  });
});

describe('the e-mail address on the Profile screen', () => {
  const SENT = 'We sent a confirmation link to ada@new.example. Your address changes once you open it.';

  it('asks for a change through the auth server, which mails the new address; the address stays until then', async () => {
    const user = userEvent.setup();
    renderPage();
    const field = await screen.findByLabelText('E-mail address');
    await waitFor(() => expect(field).toHaveValue('ada@example.com'));
    const change = screen.getByRole('button', { name: 'Change e-mail' });
    expect(change).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'ada@new.example');
    await user.click(change);
    expect(auth.updateUser).toHaveBeenCalledWith({ email: 'ada@new.example' });
    expect(await screen.findByText(SENT)).toBeInTheDocument();
    expect(field).toHaveValue('ada@example.com');
    expect(mutate).not.toHaveBeenCalled();
  });

  it('shows a change that is waiting for its link (new_email)', async () => {
    auth.getUser.mockResolvedValue({
      data: { user: { id: 'u1', email: 'ada@example.com', email_confirmed_at: 'x', new_email: 'ada@new.example' } },
      error: null,
    });
    renderPage();
    expect(await screen.findByText(SENT)).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail address')).toHaveValue('ada@example.com');
  });

  it("refuses an invalid address, and shows the server's message (a 429 included)", async () => {
    const user = userEvent.setup();
    renderPage();
    const field = await screen.findByLabelText('E-mail address');
    await user.clear(field);
    await user.type(field, 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    expect(auth.updateUser).not.toHaveBeenCalled();

    auth.updateUser.mockResolvedValue({
      data: { user: null },
      error: { name: 'AuthApiError', status: 429, message: 'Too many requests. Please try again later.' },
    });
    await user.clear(field);
    await user.type(field, 'ada@new.example');
    await user.click(screen.getByRole('button', { name: 'Change e-mail' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests. Please try again later.');
    expect(screen.queryByText(SENT)).toBeNull();
  });
});
