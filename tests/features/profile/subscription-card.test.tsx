// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESUME_FAILED } from '../../../src/backend/billing.ts';
import {
  RESUME,
  SubscriptionCard,
  type SubscriptionCardProps,
} from '../../../src/features/profile/subscription-card.tsx';
import { stubBilling, type StubbedBilling } from '../billing/billing-stubs.ts';

const backend = vi.hoisted(() => ({ invoke: vi.fn(), getSession: vi.fn() }));
vi.mock('../../../src/backend/supabase.ts', () => ({
  supabase: { functions: { invoke: backend.invoke }, auth: { getSession: backend.getSession } },
}));

let billing: StubbedBilling;
beforeEach(() => {
  billing = stubBilling(backend);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A yearly Pro plan cancelled in the portal, its year ending late on 26 Nov (UTC), in Auckland. */
const cancelled: SubscriptionCardProps = {
  tier: 'pro',
  username: 'ada',
  email: 'ada@example.com',
  billing: { plan_period_end: '2027-11-26T22:59:00+00:00', plan_cancel_at_period_end: true },
  timeZone: 'Pacific/Auckland',
};

function renderCard(props: SubscriptionCardProps) {
  return render(
    <MemoryRouter>
      <SubscriptionCard {...props} />
    </MemoryRouter>,
  );
}

describe('the Subscription card of a paid plan', () => {
  it('says when a cancelled plan ends, in the user’s zone, and offers Resume', async () => {
    renderCard(cancelled);
    expect(screen.getByText('Your Pro plan ends on 27 November 2027.')).toBeInTheDocument();
    const resume = screen.getByRole('button', { name: RESUME });
    billing.answer({ resumed: true });
    await userEvent.click(resume);
    expect(backend.invoke).toHaveBeenCalledWith('resume-subscription', { body: {} });
    // Asked; the provider's event brings the renewing row, and with it the card below.
    expect(screen.getByRole('button', { name: 'Resuming...' })).toBeDisabled();
    cleanup();

    renderCard({ ...cancelled, billing: { ...cancelled.billing!, plan_cancel_at_period_end: false } });
    expect(screen.getByText('Your Pro plan renews on 27 November 2027.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: RESUME })).toBeNull();
  });

  it('says why Resume failed, and lets the user try again', async () => {
    billing.fail(502, { error: 'provider down' });
    renderCard({ ...cancelled, tier: 'team', timeZone: 'UTC' });
    expect(screen.getByText('Your Team plan ends on 26 November 2027.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: RESUME }));
    expect(await screen.findByRole('alert')).toHaveTextContent(RESUME_FAILED);
    await waitFor(() => expect(screen.getByRole('button', { name: RESUME })).toBeEnabled());
  });

  it('counts a plan already resumed elsewhere (409) as done', async () => {
    billing.fail(409, { error: 'Your plan is not set to end.' });
    renderCard(cancelled);
    await userEvent.click(screen.getByRole('button', { name: RESUME }));
    await waitFor(() => expect(backend.invoke).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows no date and no Resume on Free, nor before the row is local', () => {
    renderCard({ ...cancelled, tier: 'free' });
    expect(screen.queryByText(/plan (ends|renews) on/)).toBeNull();
    expect(screen.queryByRole('button', { name: RESUME })).toBeNull();
    cleanup();
    renderCard({ ...cancelled, billing: null });
    expect(screen.queryByText(/plan (ends|renews) on/)).toBeNull();
    expect(screen.queryByRole('button', { name: RESUME })).toBeNull();
  });
});
