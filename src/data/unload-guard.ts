/**
 * A save is on screen before IndexedDB has it (docs/architecture.md, "The write path"): its
 * transaction starts after the next paint and commits a few milliseconds later. A page that
 * unloads in between (a reload, the tab closed) loses it, since the browser drops a transaction
 * its page leaves open. So while any save is in flight, the page asks before it unloads (the
 * browser's own "Leave site?" prompt); between saves nothing is registered, so the back-forward
 * cache and a plain reload are untouched.
 */

let inFlight = 0;

function askFirst(event: Event): void {
  event.preventDefault();
}

/** Runs `save`, with the page asking before it unloads until `save` has settled. */
export async function whileSaving<T>(save: () => Promise<T>): Promise<T> {
  const guarded = typeof window !== 'undefined';
  if (guarded && inFlight++ === 0) window.addEventListener('beforeunload', askFirst);
  try {
    return await save();
  } finally {
    if (guarded && --inFlight === 0) window.removeEventListener('beforeunload', askFirst);
  }
}
