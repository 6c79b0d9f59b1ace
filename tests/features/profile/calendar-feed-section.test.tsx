// @vitest-environment jsdom
/**
 * The Profile screen's calendar feed against the real local stack (in-process, PGlite): the
 * section's calls reach the real RPCs as a signed-in Pro user, and the address it shows serves
 * the feed.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestStack, URL_BASE, type TestStack } from '../../local/stack.ts';
import { signUpConfirmed, type StackUser } from '../../local/stack-users.ts';
import {
  CalendarFeedSection,
  FEED_NEW_WARNING,
  FEED_PRO_ONLY,
} from '../../../src/features/profile/calendar-feed-section.tsx';

const signedIn = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('../../../src/backend/supabase.ts', () => ({
  get supabase() {
    return signedIn.client;
  },
}));

let stack: TestStack;
let user: StackUser;
beforeAll(async () => {
  stack = await startTestStack();
  user = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'feedui', tier: 'pro' });
  signedIn.client = user.client;
}, 60_000);
afterAll(() => stack.close());
afterEach(() => {
  cleanup();
  localStorage.clear();
});

const renderSection = (tier: 'free' | 'pro' = 'pro') =>
  render(
    <MemoryRouter>
      <CalendarFeedSection userId={user.id} tier={tier} timeZone="Europe/Berlin" upgradePath="/Upgrade/ada" />
    </MemoryRouter>,
  );

/** The token of a feed address, fetched as a calendar app would. */
async function fetchFeed(address: string): Promise<Response> {
  const token = new URL(address).searchParams.get('token') ?? '';
  return stack.fetch(`${URL_BASE}/functions/v1/calendar-feed?token=${encodeURIComponent(token)}`);
}

describe('the calendar feed section', () => {
  it('tells a Free user it is a Pro feature, with the way to upgrade', () => {
    renderSection('free');
    expect(screen.getByText(FEED_PRO_ONLY)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/Upgrade/ada');
  });

  it('makes an address that serves the feed, keeps it on this device, renews and turns it off', async () => {
    const person = userEvent.setup();
    renderSection();
    // The button waits for the feed's status (a disabled button ignores the click).
    const create = await screen.findByRole('button', { name: 'Create feed address' });
    await waitFor(() => expect(create).toBeEnabled());
    await person.click(create);
    const field = await screen.findByLabelText('Feed address');
    const first = (field as HTMLInputElement).value;
    expect(first).toContain('/functions/v1/calendar-feed?token=');
    expect((await fetchFeed(first)).status).toBe(200);
    // One click to subscribe: the same address (same token) as a webcal: link.
    const subscribe = screen.getByRole('link', { name: 'Subscribe in your calendar app' });
    expect(subscribe).toHaveAttribute('href', first.replace(/^https?:\/\//, 'webcal://'));
    expect(subscribe.getAttribute('href')).toMatch(/^webcal:\/\/.+\/functions\/v1\/calendar-feed\?token=[\w-]{43}$/);
    cleanup();

    renderSection(); // another visit on this device: the address is still shown
    expect(((await screen.findByLabelText('Feed address')) as HTMLInputElement).value).toBe(first);
    await person.click(screen.getByRole('button', { name: 'New address' }));
    expect(screen.getByRole('alert')).toHaveTextContent(FEED_NEW_WARNING);
    await person.click(screen.getByRole('button', { name: 'Make a new address' }));
    await waitFor(() => expect((screen.getByLabelText('Feed address') as HTMLInputElement).value).not.toBe(first));
    const second = (screen.getByLabelText('Feed address') as HTMLInputElement).value;
    expect((await fetchFeed(first)).status).toBe(404);
    expect((await fetchFeed(second)).status).toBe(200);

    await person.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('The calendar feed is off.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Feed address')).not.toBeInTheDocument();
    expect((await fetchFeed(second)).status).toBe(404);
    expect(await screen.findByRole('button', { name: 'Create feed address' })).toBeEnabled();
  });
});
