/**
 * Reminders on this device while Linkboard is closed: with the user's consent,
 * asked only when they turn it on, the browser's push subscription is saved on the server
 * (save_push_subscription), whose scheduled send-reminders pushes each due reminder to it; the
 * service worker shows it (sync-worker/push-handler.ts). The server's VAPID public key comes
 * from VITE_VAPID_PUBLIC_KEY (a hosted build) or the page (<meta name="linkboard-vapid-key">,
 * written by the local stack as it writes the anon key).
 */
export const VAPID_KEY_META = 'linkboard-vapid-key';

export type PushReminderOutcome = 'subscribed' | 'denied' | 'unsupported' | 'failed';

/**
 * What an error thrown while subscribing means for the user. A browser without a push service
 * has PushManager but cannot subscribe: Chromium (headless, or built without Google's push
 * service) rejects with AbortError ('Registration failed - push service not available'), others
 * with NotSupportedError; trying again will not help, so it is 'unsupported'. NotAllowedError is
 * a refused permission. Anything else (the network, the server) may pass: 'failed'.
 */
export function pushFailureOutcome(error: unknown): Exclude<PushReminderOutcome, 'subscribed'> {
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  if (name === 'AbortError' || name === 'NotSupportedError') return 'unsupported';
  if (name === 'NotAllowedError') return 'denied';
  return 'failed';
}

/** The key the server signs reminder pushes with; '' when the app knows none. */
export function vapidPublicKey(doc: Document | undefined = globalThis.document): string {
  return (
    import.meta.env.VITE_VAPID_PUBLIC_KEY ||
    (doc?.querySelector(`meta[name="${VAPID_KEY_META}"]`)?.getAttribute('content') ?? '')
  );
}

/** Whether this browser can take reminder pushes from this server (it may still be refused permission). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof PushManager !== 'undefined' &&
    typeof Notification !== 'undefined' &&
    vapidPublicKey() !== ''
  );
}

function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

function base64url(buffer: ArrayBuffer | null): string {
  if (!buffer) return '';
  return btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return navigator.serviceWorker.getRegistration().catch(() => undefined);
}

/** This device's push subscription, if reminders are on here (and the browser can tell). */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  return (await (await registration())?.pushManager.getSubscription().catch(() => null)) ?? null;
}

async function rpc() {
  return (await import('./supabase.ts')).supabase;
}

type SaveResult = 'saved' | 'taken' | 'failed';

async function save(subscription: PushSubscription): Promise<SaveResult> {
  const { error } = await (
    await rpc()
  ).rpc('save_push_subscription', {
    p_endpoint: subscription.endpoint,
    p_p256dh: base64url(subscription.getKey('p256dh')),
    p_auth: base64url(subscription.getKey('auth')),
  });
  if (!error) return 'saved';
  // Another account on this browser turned reminders on and never off: this one needs its own.
  return error.code === '42501' && error.hint === 'forbidden' ? 'taken' : 'failed';
}

/**
 * Turns reminders on for this device: asks for permission to notify (only now, the user having
 * asked), subscribes with the server's key (a subscription made for another key, or saved by
 * another account, is replaced) and saves it on the server.
 */
export async function enablePushReminders(): Promise<PushReminderOutcome> {
  if (!pushSupported()) return 'unsupported';
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const worker = await registration();
  if (!worker) return 'unsupported';
  const key = vapidPublicKey();
  const subscribe = () => worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(key) });
  try {
    let subscription = await worker.pushManager.getSubscription();
    if (subscription && base64url(subscription.options.applicationServerKey) !== key.replace(/=+$/, '')) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await subscribe();
    let saved = await save(subscription);
    if (saved === 'taken') {
      await subscription.unsubscribe();
      saved = await save(await subscribe());
    }
    return saved === 'saved' ? 'subscribed' : 'failed';
  } catch (error) {
    return pushFailureOutcome(error);
  }
}

/**
 * Saves this device's subscription again when reminders are on here (the server may have
 * forgotten it, or the browser renewed its keys); quietly does nothing offline or on refusal.
 */
export async function resavePushSubscription(): Promise<void> {
  const subscription = await currentPushSubscription();
  if (subscription && navigator.onLine !== false) await save(subscription).catch(() => undefined);
}

/**
 * Turns reminders off for this device: forgets it on the server and drops the browser's
 * subscription. Offline the server keeps the row until its next push, which the push service
 * then answers 410 (gone), and the server forgets it.
 */
export async function disablePushReminders(): Promise<void> {
  const subscription = await currentPushSubscription();
  if (!subscription) return;
  try {
    await (await rpc()).rpc('delete_push_subscription', { p_endpoint: subscription.endpoint });
  } catch {
    // Offline: the push service's 410 after the unsubscribe below makes the server forget it.
  }
  await subscription.unsubscribe().catch(() => false);
}
