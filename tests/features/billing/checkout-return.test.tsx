// @vitest-environment jsdom
/**
 * Back from the card provider: the Upgrade screen says only what is known. It asks the server
 * whether the checkout session was paid, waits for the synced profile row to bring the plan
 * bought, and after a bounded wait says the payment is not confirmed yet and what to do.
 */
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  CHECKOUT_CANCELLED,
  CHECKOUT_NOT_CONFIRMED,
  CHECKOUT_UNPAID,
  CHECKOUT_WAITING,
  CONFIRM_TIMEOUT_MS,
} from '../../../src/features/billing/checkout-return.tsx';
import { upgradeHarness } from './upgrade-harness.tsx';

const backend = vi.hoisted(() => ({ invoke: vi.fn(), getSession: vi.fn() }));
vi.mock('../../../src/backend/supabase.ts', () => ({
  supabase: { functions: { invoke: backend.invoke }, auth: { getSession: backend.getSession } },
}));

const harness = upgradeHarness(backend);
const SESSION = 'cs_test_a1B2-c3_D4';
const status = () => screen.getByRole('status');
const markedCurrent = (name: string) =>
  within(screen.getByRole('article', { name })).queryAllByText('Current plan').length > 0;
const paid = { status: 'complete', paymentStatus: 'paid', plan: 'pro', billingCycle: 'yearly' };

describe('coming back from checkout', () => {
  it('waits for the payment to be confirmed, then says the plan bought is active', async () => {
    harness.billing.answer(paid);
    const router = await harness.renderPage('free', `/Upgrade/ada?checkout=success&session_id=${SESSION}`);
    expect(status()).toHaveTextContent(CHECKOUT_WAITING);
    expect(status()).not.toHaveTextContent(/Payment/);
    expect(backend.invoke).toHaveBeenCalledWith('checkout-status', { body: { sessionId: SESSION } });
    expect(harness.requestSync).toHaveBeenCalled();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(markedCurrent('Free')).toBe(true);

    // The webhook set the plan; the pull brings the profile row.
    await harness.db.user_profiles.update('u1', { subscription_tier: 'pro', billing_cycle: 'yearly' });
    await waitFor(() => expect(status()).toHaveTextContent('Payment confirmed. Your Pro plan is active.'));
    expect(markedCurrent('Pro')).toBe(true);
    const calls = harness.requestSync.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(harness.requestSync).toHaveBeenCalledTimes(calls);
  });

  it('says no payment was made when the provider says the session is unpaid, and waits for nothing', async () => {
    for (const session of ['open', 'expired']) {
      harness.billing.answer({ ...paid, status: session, paymentStatus: 'unpaid' });
      await harness.renderPage('free', `/Upgrade/ada?checkout=success&session_id=${SESSION}`);
      await waitFor(() => expect(status()).toHaveTextContent(CHECKOUT_UNPAID));
      expect(markedCurrent('Free')).toBe(true);
      cleanup();
    }
  });

  it('after a minute without the plan, says it is not confirmed yet and what to do; the plan may still arrive', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      // The provider could not be asked: the page waits on the plan alone.
      harness.billing.fail(502);
      await harness.renderPage('free', `/Upgrade/ada?checkout=success&session_id=${SESSION}`);
      expect(status()).toHaveTextContent(CHECKOUT_WAITING);
      await act(() => vi.advanceTimersByTimeAsync(CONFIRM_TIMEOUT_MS - 1_000));
      expect(status()).toHaveTextContent(CHECKOUT_WAITING);
      const asked = harness.requestSync.mock.calls.length;
      expect(asked).toBeGreaterThanOrEqual(10);
      await act(() => vi.advanceTimersByTimeAsync(1_000));
      expect(status()).toHaveTextContent(CHECKOUT_NOT_CONFIRMED);
      expect(CHECKOUT_NOT_CONFIRMED).toMatch(/check your Profile later, and contact support/);
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(harness.requestSync.mock.calls.length).toBeLessThanOrEqual(asked + 1);

      // Without a session id or a remembered plan, any change of plan is the one bought.
      await act(() => harness.db.user_profiles.update('u1', { subscription_tier: 'team' }));
      await waitFor(() => expect(status()).toHaveTextContent('Payment confirmed. Your Team plan is active.'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('after a cycle change confirmed in the portal (no session), waits for the cycle, not only the plan', async () => {
    const user = userEvent.setup();
    harness.billing.answer({ url: 'https://billing.example/confirm' });
    await harness.renderPage('pro', '/Upgrade/ada', { billing_cycle: 'monthly' });
    await user.click(screen.getByRole('radio', { name: /Yearly/ }));
    await user.click(within(screen.getByRole('article', { name: 'Team' })).getByRole('button'));
    await waitFor(() => expect(harness.billing.assign).toHaveBeenCalled());
    cleanup();

    await harness.renderPage('pro', '/Upgrade/ada?checkout=success', { billing_cycle: 'monthly' });
    expect(status()).toHaveTextContent(CHECKOUT_WAITING);
    await harness.db.user_profiles.update('u1', { subscription_tier: 'team' });
    await waitFor(() => expect(markedCurrent('Team')).toBe(true));
    expect(status()).toHaveTextContent(CHECKOUT_WAITING);
    await harness.db.user_profiles.update('u1', { billing_cycle: 'yearly' });
    await waitFor(() => expect(status()).toHaveTextContent('Payment confirmed. Your Team plan is active.'));
  });

  it('on cancel: says nothing was charged, asks nothing, and clears the address', async () => {
    const router = await harness.renderPage('free', '/Upgrade/ada?checkout=cancelled&tab=x');
    expect(status()).toHaveTextContent(CHECKOUT_CANCELLED);
    await waitFor(() => expect(router.state.location.search).toBe('?tab=x'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(harness.requestSync).not.toHaveBeenCalled();
    expect(backend.invoke).not.toHaveBeenCalled();
  });

  it('without the parameter: no message, and the address is left alone', async () => {
    const router = await harness.renderPage('free');
    expect(screen.queryByRole('status')).toBeNull();
    expect(router.state.historyAction).toBe('POP');
  });
});
