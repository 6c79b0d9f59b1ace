// @vitest-environment jsdom
/** : a plan change that arrives by sync is said once on this device, without a reload. */
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlanChangeNotice } from '../../../src/app/shell/plan-change-notice.tsx';
import { useCurrentUser } from '../../../src/backend/current-user-store.ts';
import { useToasts } from '../../../src/ui/toast-store.ts';

const user = (tier: string) => ({
  id: 'u-plan',
  email: 'ada@example.com',
  username: 'ada',
  full_name: 'Ada',
  bio: null,
  subscription_tier: tier,
  time_zone: 'UTC',
});

const mount = () =>
  render(
    <MemoryRouter>
      <PlanChangeNotice />
    </MemoryRouter>,
  );
const setTier = (tier: string) => act(() => useCurrentUser.getState().updateUser({ subscription_tier: tier }));
const toastTexts = () => useToasts.getState().toasts.map((t) => t.message);

describe('the plan change notice', () => {
  beforeEach(() => {
    localStorage.clear();
    useToasts.setState({ toasts: [] });
    useCurrentUser.setState({ status: 'signed-in', user: user('pro') });
  });
  afterEach(cleanup);

  it('says nothing the first time this device sees a plan', () => {
    mount();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toastTexts()).toEqual([]);
  });

  it('explains a downgrade to Free once: what stays readable and what needs Pro', async () => {
    mount();
    setTier('free');
    const dialog = await screen.findByRole('dialog', { name: 'Your plan is now Free' });
    expect(dialog).toHaveTextContent('Everything you saved stays readable');
    expect(dialog).toHaveTextContent('more than 30 links');
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/Upgrade/ada');
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // A reload (a new mount) on the same plan says nothing again.
    cleanup();
    mount();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('greets an upgrade with one toast', () => {
    useCurrentUser.setState({ status: 'signed-in', user: user('free') });
    mount();
    setTier('team');
    setTier('team');
    expect(toastTexts()).toEqual(['Your plan is now Team.']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
