// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
// Dexie's liveQuery only reacts with a global indexedDB (an injected factory never emits).
import 'fake-indexeddb/auto';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CHECKOUT_FAILED, CHECKOUT_SIGN_IN, PORTAL_FAILED, PORTAL_SIGN_IN } from '../../../src/backend/billing.ts';
import { CHECKOUT_OFFLINE } from '../../../src/features/billing/upgrade-page.tsx';
import { goOffline, goOnline } from './billing-stubs.ts';
import { upgradeHarness } from './upgrade-harness.tsx';

const backend = vi.hoisted(() => ({ invoke: vi.fn(), getSession: vi.fn() }));
vi.mock('../../../src/backend/supabase.ts', () => ({
  supabase: { functions: { invoke: backend.invoke }, auth: { getSession: backend.getSession } },
}));

const harness = upgradeHarness(backend);
const renderPage = harness.renderPage;

const card = (name: string) => screen.getByRole('article', { name });
const cardButton = (name: string) => within(card(name)).getByRole('button');
/** The card says 'Current plan' (its badge and its disabled button). */
const markedCurrent = (name: string) => within(card(name)).queryAllByText('Current plan').length > 0;

describe('the Upgrade screen (docs/product.md, Upgrade)', () => {
  it('switches the prices and savings with the monthly/yearly toggle', async () => {
    const user = userEvent.setup();
    await renderPage('free');
    const monthly = screen.getByRole('radio', { name: 'Monthly' });
    const yearly = screen.getByRole('radio', { name: 'Yearly Save 17%' });
    expect(monthly).toBeChecked();
    expect(card('Pro')).toHaveTextContent('$4.99 a month');
    expect(card('Team')).toHaveTextContent('$9.99 per user a month');
    expect(card('Free')).toHaveTextContent('$0');
    expect(screen.queryByText('Save $10/year')).toBeNull();
    expect(screen.queryByText('Save $20/year')).toBeNull();

    await user.click(yearly);
    expect(yearly).toBeChecked();
    expect(card('Pro')).toHaveTextContent('$50 a year');
    expect(card('Pro')).toHaveTextContent('Save $10/year');
    expect(card('Team')).toHaveTextContent('$100 per user a year');
    expect(card('Team')).toHaveTextContent('Save $20/year');
    expect(card('Pro')).not.toHaveTextContent('$4.99');

    await user.click(monthly);
    expect(card('Pro')).toHaveTextContent('$4.99 a month');
    expect(screen.queryByText('Save $10/year')).toBeNull();
  });

  it('opens on the cycle the user is billed: yearly after a yearly purchase', async () => {
    const user = userEvent.setup();
    await renderPage('pro', '/Upgrade/ada', { billing_cycle: 'yearly', plan_period_end: '2027-11-26T10:00:00+00:00' });
    await waitFor(() => expect(screen.getByRole('radio', { name: /Yearly/ })).toBeChecked());
    expect(card('Team')).toHaveTextContent('$100 per user a year');
    // The user's own choice then wins.
    await user.click(screen.getByRole('radio', { name: 'Monthly' }));
    expect(card('Team')).toHaveTextContent('$9.99 per user a month');
    cleanup();

    await renderPage('team', '/Upgrade/ada', { billing_cycle: 'monthly' });
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
  });

  it('shows the Pro feature text, the comparison table, the roadmap and the FAQ', async () => {
    await renderPage('free');
    expect(card('Pro')).toHaveTextContent(
      'Unlimited links & directories • Calendar sync • Advanced voting • Priority support',
    );
    const table = screen.getByRole('table', { name: 'Features of the Free, Pro and Team plans' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Feature', 'FreeCurrent plan', 'Pro', 'Team']);
    const ads = within(table).getByRole('rowheader', { name: 'Ads' }).closest('tr')!;
    expect(
      within(ads)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Shown', 'None', 'None']);
    expect(within(table).getAllByRole('rowheader')).toHaveLength(13);
    expect(screen.getByRole('heading', { name: 'Coming next' }).parentElement).toHaveTextContent(
      'Q1 2026: reminders, export and calendar sync.',
    );
    expect(screen.getByText('Q2 2026: team management.')).toBeInTheDocument();
    expect(screen.getByText('Can I cancel at any time?').tagName).toBe('SUMMARY');
    expect(screen.getByText('Which payment methods can I use?').closest('details')).toHaveTextContent('Cards');
    // Headings in order: the page's h1, sections' h2, the cards' h3.
    expect(screen.getByRole('heading', { level: 1, name: 'Upgrade' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Free', 'Pro', 'Team']);
  });

  it.each([
    ['free', 'Free', { Pro: 'Upgrade to Pro', Team: 'Upgrade to Team' }],
    ['pro', 'Pro', { Free: 'Manage or Downgrade Plan', Team: 'Upgrade to Team' }],
    ['team', 'Team', { Free: 'Manage or Downgrade Plan', Pro: 'Manage or Downgrade Plan' }],
  ] as const)('on %s: marks the current plan and offers the right buttons', async (tier, current, others) => {
    await renderPage(tier);
    expect(markedCurrent(current)).toBe(true);
    expect(cardButton(current)).toHaveAccessibleName('Current plan');
    expect(cardButton(current)).toBeDisabled();
    for (const [name, label] of Object.entries(others)) {
      expect(markedCurrent(name)).toBe(false);
      expect(cardButton(name)).toHaveAccessibleName(expect.stringContaining(label));
      expect(cardButton(name)).toBeEnabled();
    }
  });

  it('starts checkout with the chosen plan and cycle, and goes to the url it answers', async () => {
    const user = userEvent.setup();
    await renderPage('free');
    await user.click(screen.getByRole('radio', { name: /Yearly/ }));
    await user.click(cardButton('Team'));
    await waitFor(() => expect(harness.billing.assign).toHaveBeenCalledWith('https://checkout.example/session'));
    expect(backend.invoke).toHaveBeenCalledTimes(1);
    expect(backend.invoke).toHaveBeenCalledWith('create-checkout', {
      body: { plan: 'team', billingCycle: 'yearly' },
    });
  });

  it('starts one checkout on a double click, and shows it is busy', async () => {
    const user = userEvent.setup();
    const answer = harness.billing.hold();
    await renderPage('free');
    await user.dblClick(cardButton('Pro'));
    await user.click(cardButton('Pro'));
    expect(cardButton('Pro')).toHaveTextContent('Starting checkout...');
    expect(cardButton('Pro')).toHaveAttribute('aria-busy', 'true');
    expect(cardButton('Team')).toBeDisabled();
    await user.click(cardButton('Team'));
    answer({ url: 'https://checkout.example/once' });
    await waitFor(() => expect(harness.billing.assign).toHaveBeenCalledTimes(1));
    expect(backend.invoke).toHaveBeenCalledTimes(1);
    expect(backend.invoke).toHaveBeenCalledWith('create-checkout', { body: { plan: 'pro', billingCycle: 'monthly' } });
  });

  it('asks a Pro user who upgrades to Team for checkout (the server answers its portal page)', async () => {
    const user = userEvent.setup();
    await renderPage('pro');
    await user.click(cardButton('Team'));
    await waitFor(() => expect(harness.billing.assign).toHaveBeenCalled());
    expect(backend.invoke).toHaveBeenCalledWith('create-checkout', { body: { plan: 'team', billingCycle: 'monthly' } });
  });

  it('opens the billing portal to manage or downgrade, coming back to this page', async () => {
    const user = userEvent.setup();
    harness.billing.answer({ url: 'https://billing.example/portal' });
    await renderPage('team');
    await user.click(cardButton('Pro'));
    await waitFor(() => expect(harness.billing.assign).toHaveBeenCalledWith('https://billing.example/portal'));
    expect(backend.invoke).toHaveBeenCalledWith('billing-portal', {
      body: { email: 'ada@example.com', returnUrl: `${location.origin}/Upgrade/ada` },
    });
  });

  it("says 'Please sign in to continue with checkout.' without a session, and sends nothing", async () => {
    const user = userEvent.setup();
    harness.billing.signOut();
    await renderPage('free');
    await user.click(cardButton('Pro'));
    expect(await screen.findByRole('alert')).toHaveTextContent(CHECKOUT_SIGN_IN);
    expect(backend.invoke).not.toHaveBeenCalled();
    expect(cardButton('Pro')).toBeEnabled();
  });

  it("says the product's checkout error when the server fails or answers no url, and lets the user try again", async () => {
    const user = userEvent.setup();
    harness.billing.fail(500);
    await renderPage('free');
    await user.click(cardButton('Pro'));
    expect(await screen.findByRole('alert')).toHaveTextContent(CHECKOUT_FAILED);
    expect(harness.billing.assign).not.toHaveBeenCalled();

    harness.billing.answer({});
    await user.click(cardButton('Team'));
    await waitFor(() => expect(backend.invoke).toHaveBeenCalledTimes(2));
    expect(await screen.findByRole('alert')).toHaveTextContent(CHECKOUT_FAILED);
    expect(cardButton('Team')).toBeEnabled();
  });

  it("says the product's portal errors: no session, and no subscription (404)", async () => {
    const user = userEvent.setup();
    harness.billing.signOut();
    await renderPage('pro');
    await user.click(cardButton('Free'));
    expect(await screen.findByRole('alert')).toHaveTextContent(PORTAL_SIGN_IN);
    expect(backend.invoke).not.toHaveBeenCalled();

    harness.billing.signIn();
    harness.billing.fail(404, { error: 'No subscription' });
    await user.click(cardButton('Free'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(PORTAL_FAILED));
    expect(harness.billing.assign).not.toHaveBeenCalled();
  });

  it('offline: shows every plan, says checkout needs a connection and disables the buttons', async () => {
    goOffline();
    await renderPage('pro');
    expect(screen.getByRole('status')).toHaveTextContent(CHECKOUT_OFFLINE);
    expect(cardButton('Team')).toBeDisabled();
    expect(cardButton('Free')).toBeDisabled();
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(card('Team')).toHaveTextContent('$9.99 per user a month');

    act(() => goOnline());
    expect(screen.queryByText(CHECKOUT_OFFLINE)).toBeNull();
    expect(cardButton('Team')).toBeEnabled();
    act(() => goOffline());
    expect(screen.getByText(CHECKOUT_OFFLINE)).toBeInTheDocument();
    expect(cardButton('Team')).toBeDisabled();
  });
});
