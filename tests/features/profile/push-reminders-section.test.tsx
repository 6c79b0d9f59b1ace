// @vitest-environment jsdom
/**
 * The 'Remind me on this device when Linkboard is closed' switch against the real
 * local stack in-process: permission is asked only when the user turns it on, the browser's
 * subscription (a fake PushManager) is saved through save_push_subscription for the signed-in
 * user, and turning it off deletes it and unsubscribes; refused, offline or unsupported, it says so.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestStack, URL_BASE, type TestStack } from '../../local/stack.ts';
import { signUpConfirmed, type StackUser } from '../../local/stack-users.ts';
import {
  PUSH_LABEL,
  PUSH_MESSAGES,
  PUSH_OFFLINE,
  PushRemindersSection,
} from '../../../src/features/profile/push-reminders-section.tsx';

const signedIn = vi.hoisted(() => ({ client: null as unknown }));
vi.mock('../../../src/backend/supabase.ts', () => ({
  get supabase() {
    return signedIn.client;
  },
}));

const VAPID_KEY = `B${'A'.repeat(86)}`;
let stack: TestStack;
let user: StackUser;
beforeAll(async () => {
  stack = await startTestStack();
  user = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'pushui' });
  signedIn.client = user.client;
}, 60_000);
afterAll(() => stack.close());

/** A browser with a service worker whose PushManager makes subscriptions on a push service. */
function fakeBrowser(permission: NotificationPermission, subscribeError?: Error) {
  let current: (PushSubscription & { unsubscribe: ReturnType<typeof vi.fn> }) | null = null;
  const make = (key: BufferSource) => {
    const p256dh = new Uint8Array(65).fill(7);
    p256dh[0] = 4;
    const subscription = {
      endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
      options: { userVisibleOnly: true, applicationServerKey: (key as Uint8Array).buffer },
      getKey: (name: string) => (name === 'p256dh' ? p256dh.buffer : new Uint8Array(16).fill(9).buffer),
      unsubscribe: vi.fn(async () => {
        current = null;
        return true;
      }),
    };
    // A stand-in for the browser's PushSubscription (jsdom has none), with what the section reads.
    return subscription as unknown as PushSubscription & { unsubscribe: ReturnType<typeof vi.fn> };
  };
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (options: PushSubscriptionOptionsInit) => {
      if (subscribeError) throw subscribeError;
      return (current = make(options.applicationServerKey as BufferSource));
    }),
  };
  const requestPermission = vi.fn(async () => permission);
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', { permission: 'default', requestPermission });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ pushManager }) },
  });
  return { pushManager, requestPermission, current: () => current };
}

const rows = async () =>
  (
    await stack.db.query<{ endpoint: string }>('select endpoint from public.push_subscriptions where user_id = $1', [
      user.id,
    ])
  ).rows.map((row) => row.endpoint);

beforeEach(() => {
  document.head.innerHTML = `<meta name="linkboard-vapid-key" content="${VAPID_KEY}" />`;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Renders the section, turns the switch on, and waits for what it then says. */
async function turnOn(message: string) {
  render(<PushRemindersSection />);
  const toggle = await screen.findByRole('switch', { name: PUSH_LABEL });
  await waitFor(() => expect(toggle).toBeEnabled());
  await userEvent.click(toggle);
  await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(message));
  return toggle;
}

describe('PushRemindersSection', () => {
  it('asks for permission only when turned on, then saves the subscription; off deletes it', async () => {
    const browser = fakeBrowser('granted');
    render(<PushRemindersSection />);
    const toggle = await screen.findByRole('switch', { name: PUSH_LABEL });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).not.toBeChecked();
    expect(browser.requestPermission).not.toHaveBeenCalled();

    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(screen.getByRole('status')).toHaveTextContent(PUSH_MESSAGES.subscribed);
    expect(browser.pushManager.subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    const endpoint = browser.current()!.endpoint;
    expect(await rows()).toEqual([endpoint]);

    await userEvent.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(await rows()).toEqual([]);
    expect(browser.current()).toBeNull();
  });

  it('stays off and says so when notifications are refused', async () => {
    const browser = fakeBrowser('denied');
    const toggle = await turnOn(PUSH_MESSAGES.denied);
    expect(toggle).not.toBeChecked();
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
  });

  it('says a browser without a push service cannot receive them (not "try again"), and stays off', async () => {
    // What Chromium without a push service (headless, or without Google's) rejects subscribe() with.
    const browser = fakeBrowser(
      'granted',
      new DOMException('Registration failed - push service not available', 'AbortError'),
    );
    const toggle = await turnOn(PUSH_MESSAGES.unsupported);
    expect(PUSH_MESSAGES.unsupported).toBe(
      'This browser cannot receive push reminders. Reminders still show while Linkboard is open.',
    );
    expect(browser.pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect(toggle).not.toBeChecked();
    expect(toggle).toBeDisabled();
    expect(await rows()).toEqual([]);
  });

  it('keeps "try again later" for a failure that may pass', async () => {
    fakeBrowser('granted', new TypeError('Failed to fetch'));
    const toggle = await turnOn(PUSH_MESSAGES.failed);
    expect(toggle).not.toBeChecked();
    expect(toggle).toBeEnabled();
  });

  it('cannot be turned on offline, or in a browser without push', async () => {
    fakeBrowser('granted');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<PushRemindersSection />);
    expect(await screen.findByText(PUSH_OFFLINE)).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: PUSH_LABEL })).toBeDisabled();
    cleanup();

    document.head.innerHTML = '';
    render(<PushRemindersSection />);
    expect(screen.getByRole('switch', { name: PUSH_LABEL })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(PUSH_MESSAGES.unsupported);
  });
});
