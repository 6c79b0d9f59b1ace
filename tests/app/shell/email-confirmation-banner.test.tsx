// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const auth = vi.hoisted(() => ({
  getSession: vi.fn(),
  getUser: vi.fn(),
  resend: vi.fn(),
}));
vi.mock('../../../src/backend/supabase.ts', () => ({ supabase: { auth } }));

import { EmailConfirmationBanner } from '../../../src/app/shell/email-confirmation-banner.tsx';
import { useUserSession, type UserSession } from '../../../src/app/sync/user-session.ts';
import { useAuthEmailStore } from '../../../src/features/profile/auth-email.ts';

const TEXT =
  'Confirm your e-mail address: we sent a link to ada@example.com. Directories shared with you appear once it is confirmed.';
const unconfirmed = { id: 'u1', email: 'ada@example.com', email_confirmed_at: null };
const confirmed = { ...unconfirmed, email_confirmed_at: '2026-11-23T10:00:00Z' };
const sync = vi.fn().mockResolvedValue('synced');

function setOnline(value: boolean) {
  Object.defineProperty(navigator, 'onLine', { value, configurable: true });
}

beforeEach(() => {
  useAuthEmailStore.setState({ info: null });
  auth.getSession.mockResolvedValue({ data: { session: { user: unconfirmed } }, error: null });
  auth.getUser.mockResolvedValue({ data: { user: unconfirmed }, error: null });
  auth.resend.mockResolvedValue({ data: {}, error: null });
  // A stand-in session: the banner only asks its engine to sync.
  useUserSession.setState({ session: { engine: { sync } } as unknown as UserSession });
  setOnline(true);
});

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  useUserSession.setState({ session: null });
  setOnline(true);
});

describe('the e-mail confirmation banner', () => {
  it('asks an unconfirmed account to confirm its address, and sends the link again', async () => {
    const user = userEvent.setup();
    render(<EmailConfirmationBanner />);
    const banner = await screen.findByRole('region', { name: 'Confirm your e-mail address' });
    expect(banner).toHaveTextContent(TEXT);
    expect(auth.getUser).toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(auth.resend).toHaveBeenCalledWith({ type: 'signup', email: 'ada@example.com' });
    expect(await screen.findByRole('status')).toHaveTextContent('Link sent.');
  });

  it("shows a throttled resend's message (HTTP 429) where the user acted", async () => {
    auth.resend.mockResolvedValue({
      data: null,
      error: { name: 'AuthApiError', status: 429, message: 'Too many requests. Please try again in 60 seconds.' },
    });
    const user = userEvent.setup();
    render(<EmailConfirmationBanner />);
    await user.click(await screen.findByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Too many requests. Please try again in 60 seconds.');
  });

  it('shows nothing once the server says the address is confirmed, even if the stored session does not', async () => {
    auth.getUser.mockResolvedValue({ data: { user: confirmed }, error: null });
    render(<EmailConfirmationBanner />);
    await waitFor(() => expect(auth.getUser).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull());
  });

  it('goes away when the tab comes back after the link was opened, and syncs the shared directories', async () => {
    render(<EmailConfirmationBanner />);
    await screen.findByRole('region', { name: 'Confirm your e-mail address' });
    auth.getUser.mockResolvedValue({ data: { user: confirmed }, error: null });
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(screen.queryByRole('region')).toBeNull());
    expect(sync).toHaveBeenCalled();
  });

  it('offline, keeps to the stored session and does not ask the server', async () => {
    setOnline(false);
    render(<EmailConfirmationBanner />);
    expect(await screen.findByRole('region', { name: 'Confirm your e-mail address' })).toHaveTextContent(TEXT);
    expect(auth.getUser).not.toHaveBeenCalled();
  });

  it('shows nothing for a confirmed account', async () => {
    auth.getSession.mockResolvedValue({ data: { session: { user: confirmed } }, error: null });
    auth.getUser.mockResolvedValue({ data: { user: confirmed }, error: null });
    const { container } = render(<EmailConfirmationBanner />);
    await waitFor(() => expect(auth.getUser).toHaveBeenCalled());
    expect(container).toBeEmptyDOMElement();
  });
});
