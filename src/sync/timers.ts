/** Time behind an interface so back-off and intervals are testable. */
export type TimerHandle = unknown;

export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** Back-off after consecutive failures: 1, 2, 5, 10 s, then 10 s (docs/sync-protocol.md). */
export const BACKOFF_MS: readonly number[] = [1000, 2000, 5000, 10000];

export function backoffDelay(failures: number, steps: readonly number[] = BACKOFF_MS): number {
  const index = Math.min(Math.max(failures, 1), steps.length) - 1;
  return steps[index] ?? 10000;
}
