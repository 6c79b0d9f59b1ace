/**
 * Sends one Web Push message: the `web-push` package encrypts the payload (aes128gcm) and signs
 * the VAPID header, and fetch delivers it (web-push's own sendNotification speaks only https
 * through node:https; fetch runs the same on Deno and Node, takes a timeout, and refuses
 * redirects, so an endpoint cannot bounce the server elsewhere). The answer is classified: the
 * push service accepted it, says the subscription is gone (404, 410), or failed otherwise.
 */
import webpush from 'web-push';

export interface VapidDetails {
  subject: string;
  publicKey: string;
  privateKey: string;
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushOutcome = { kind: 'sent' } | { kind: 'gone' } | { kind: 'failed'; reason: string };

export type SendPush = (target: PushTarget, payload: string) => Promise<PushOutcome>;

/** How long a reminder waits at the push service for an offline device, in seconds. */
export const REMINDER_TTL_SECONDS = 600;
const TIMEOUT_MS = 10_000;

export function webPushSender(vapid: VapidDetails, fetchImpl: typeof fetch = fetch): SendPush {
  return async (target, payload) => {
    let details;
    try {
      details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        { vapidDetails: vapid, TTL: REMINDER_TTL_SECONDS, urgency: 'high', contentEncoding: 'aes128gcm' },
      );
    } catch (error) {
      // Keys the push library cannot use: the subscription can never receive anything.
      console.warn('[send-reminders] unusable subscription:', error instanceof Error ? error.message : error);
      return { kind: 'gone' };
    }
    // fetch sets Content-Length itself (and some runtimes refuse it as a request header).
    const headers = Object.fromEntries(
      Object.entries(details.headers).filter(([name]) => name.toLowerCase() !== 'content-length'),
    ) as Record<string, string>;
    let response: Response;
    try {
      response = await fetchImpl(details.endpoint, {
        method: details.method,
        headers,
        body: new Uint8Array(details.body),
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : 'network error' };
    }
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) return { kind: 'sent' };
    if (response.status === 404 || response.status === 410) return { kind: 'gone' };
    return { kind: 'failed', reason: `the push service answered ${response.status}` };
  };
}
