// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

const auth = vi.hoisted(() => ({
  claimUsername: vi.fn(async () => true),
  hasSession: vi.fn(async () => false),
  isUsernameAvailable: vi.fn(async () => true),
  signInWithPassword: vi.fn(async () => ({ ok: true as const })),
  signUpWithPassword: vi.fn(async () => ({ ok: true as const })),
}));
vi.mock('../../../src/backend/auth.ts', () => auth);
vi.mock('../../../src/backend/supabase.ts', () => ({ supabase: {} }));

import { LoginPage } from '../../../src/features/auth/login-page.tsx';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

function renderPage(path = '/Login') {
  render(
    <MemoryRouter initialEntries={[path]}>
      <LoginPage />
    </MemoryRouter>,
  );
}

describe('the login page', () => {
  it('shows every missing field of an empty sign-up form at once, next to its field', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Create an account' }));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Email is required.',
      'Password is required.',
      'Please choose a username (min 3 chars).',
    ]);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Email is required.');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription(
      'Letters, digits, underscore and hyphen. Please choose a username (min 3 chars).',
    );
    expect(auth.isUsernameAvailable).not.toHaveBeenCalled();
    expect(auth.signUpWithPassword).not.toHaveBeenCalled();

    // Filling a field clears its error only.
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Password is required.',
      'Please choose a username (min 3 chars).',
    ]);
  });

  it('asks for the email and password before signing in', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Email is required.',
      'Password is required.',
    ]);
    expect(auth.signInWithPassword).not.toHaveBeenCalled();
  });

  it("shows a throttled sign-in's plain message where the user acted", async () => {
    auth.signInWithPassword.mockResolvedValueOnce({
      ok: false,
      message: 'Too many sign-in attempts. Please try again in a minute.',
    } as never);
    const user = userEvent.setup();
    renderPage();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many sign-in attempts. Please try again in a minute.',
    );
  });

  it('opens in sign-up mode from a call to create an account', () => {
    renderPage('/Login?mode=sign-up');
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toBeInTheDocument();
  });

  it("words the confirmation link's outcome from codes, never from text in the URL", async () => {
    const reload = vi.fn(async () => null);
    useCurrentUser.setState({ reload, user: null });
    renderPage('/Login?confirmed=signup');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your e-mail address is confirmed. Sign in to continue.',
    );
    expect(reload).toHaveBeenCalled();
    cleanup();

    renderPage('/Login?confirm_error=Your%20account%20is%20locked.%20Call%20555-0100');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This confirmation link is invalid or has expired. Ask for a new one.',
    );
    expect(screen.queryByText(/555-0100/)).toBeNull();
    cleanup();

    renderPage('/Login?confirm_error=taken');
    expect(screen.getByRole('alert')).toHaveTextContent('Another account uses this e-mail address now.');
    cleanup();

    // Signed in (a new address confirmed from the Profile screen): the way back to the workspace.
    useCurrentUser.setState({ user: { id: 'u1', username: 'ada' } as never });
    renderPage('/Login?confirmed=email');
    expect(screen.getByRole('status')).toHaveTextContent('Your new e-mail address is confirmed.');
    expect(screen.getByRole('link', { name: 'Continue to your dashboard' })).toHaveAttribute('href', '/Dashboard/ada');
    useCurrentUser.setState({ user: null });
  });
});
