/**
 * Runs `run` once the main thread is idle, and at the latest after `timeoutMs`; where the browser
 * has no requestIdleCallback (Safari), after `fallbackMs`. Answers a cancel. For work that must not
 * compete with the first screen: the service worker's registration, the mutators' chunk, the
 * reminder scheduler.
 */
export function whenIdle(run: () => void, timeoutMs: number, fallbackMs = 0): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => run(), { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, fallbackMs);
  return () => clearTimeout(timer);
}
