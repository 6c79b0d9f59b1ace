import { describe, expect, it } from 'vitest';
import { pushFailureOutcome } from '../../src/backend/push-reminders.ts';

describe('pushFailureOutcome: what a failed push subscription means', () => {
  it.each([
    // Chromium without a push service (headless, or a build without Google's).
    [new DOMException('Registration failed - push service not available', 'AbortError'), 'unsupported'],
    [new DOMException('Registration failed - push service error', 'AbortError'), 'unsupported'],
    [new DOMException('Push is not supported', 'NotSupportedError'), 'unsupported'],
    [new DOMException('Registration failed - permission denied', 'NotAllowedError'), 'denied'],
    // Transient or unknown: worth trying again later.
    [new DOMException('Subscription failed - no active Service Worker', 'InvalidStateError'), 'failed'],
    [new TypeError('Failed to fetch'), 'failed'],
    [new Error('\u0000\ud800'), 'failed'],
    ['AbortError', 'failed'],
    [null, 'failed'],
    [undefined, 'failed'],
  ] as const)('%s → %s', (error, outcome) => {
    expect(pushFailureOutcome(error)).toBe(outcome);
  });
});
