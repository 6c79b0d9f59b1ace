/**
 * Live queries woken at most every WAKE_MS within a burst of saves (docs/scale.md, "Queue 1,000
 * writes"). Dexie wakes every live query a commit may have changed from the transaction's
 * `complete` event (its `mutatedParts`: the keys and index ranges written); in a loop of a thousand
 * saves each wake is a read transaction the next save's transaction waits behind, and a render of
 * the screen. A save of a burst (after-paint.ts) hands its parts here instead, once all its writes
 * are issued: on its commit they join those waiting, and every WAKE_MS the screens' live queries
 * are woken with them, as Dexie would have (its cache's reads of them forgotten and their live
 * queries woken, then `storagemutated` fired: the other live queries of this page and, through
 * Dexie's channel, those of the app's other tabs). Meanwhile the pending writes
 * (pending-writes.ts, told on the same beat) show the committed rows.
 */
import { Dexie, rangesOverlap, type ObservabilitySet } from 'dexie';

/** A transaction as Dexie's observability middleware leaves it: the parts its writes touched. */
type Observed = { mutatedParts?: ObservabilitySet };

/** The parts committed since the last wake, waiting for the next, and the wake's timer. */
let held: ObservabilitySet | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * How long the parts of a commit wait for the others of the burst. Every 16 ms (a frame) the
 * directory screen still re-rendered its grid often enough to take most of a save's time (44-67
 * ms a save against 5-10 with no list on screen); every 100 ms, 12-17 ms (docs/scale.md). A timer,
 * not requestAnimationFrame: the frames a save waits for are after-paint.ts's.
 */
export const WAKE_MS = 100;

/**
 * Called inside a save's transaction after its last write: the live queries it changes are woken
 * within WAKE_MS of its commit (with those of the burst's other commits), not as it commits. Nothing is held
 * if the transaction aborts (it changed nothing).
 */
export function holdWakeOfThisTransaction(): void {
  const tx = Dexie.currentTransaction;
  const idbtrans = tx?.idbtrans as (IDBTransaction & Observed) | undefined;
  const parts = idbtrans?.mutatedParts;
  if (!idbtrans || !parts || typeof idbtrans.addEventListener !== 'function') return;
  // Dexie fires `storagemutated` at the commit only when the transaction holds parts.
  delete idbtrans.mutatedParts;
  idbtrans.addEventListener('complete', () => wakeSoon(parts), { once: true });
}

function wakeSoon(parts: ObservabilitySet): void {
  const waiting = held !== null;
  held = Dexie.extendObservabilitySet(held ?? {}, parts);
  if (waiting) return;
  timer = setTimeout(wake, WAKE_MS);
  // A page closed meanwhile still tells the app's other tabs.
  if (typeof addEventListener === 'function') addEventListener('pagehide', wake, { once: true });
}

/**
 * Wakes the live queries of the parts held (what Dexie does at an explicit transaction's commit)
 * now rather than at the beat: a test's end flushes them while its document is still there.
 */
export function wake(): void {
  const parts = held;
  if (parts === null) return;
  held = null;
  clearTimeout(timer);
  if (typeof removeEventListener === 'function') removeEventListener('pagehide', wake);
  for (const requery of forgetCachedReads(parts)) requery();
  Dexie.on('storagemutated').fire(parts);
}

/** Whether two observability sets share a part (the test Dexie's live queries make). */
function overlap(a: ObservabilitySet, b: ObservabilitySet): boolean {
  if ('all' in a || 'all' in b) return true;
  return Object.keys(a).some((key) => b[key] !== undefined && rangesOverlap(b[key], a[key]!));
}

/**
 * Drops the cached query results the parts may have changed, as Dexie's cache middleware does
 * when an explicit transaction commits, and answers the live queries that read them: a cached
 * read is woken by its cache entry, not by `storagemutated`.
 */
function forgetCachedReads(parts: ObservabilitySet): Set<() => void> {
  const woken = new Set<() => void>();
  for (const tableCache of Object.values(Dexie.cache)) {
    for (const entries of Object.values(tableCache.queries.query)) {
      for (const entry of entries.slice()) {
        if (!overlap(entry.obsSet, parts)) continue;
        entries.splice(entries.indexOf(entry), 1);
        for (const requery of entry.subscribers) woken.add(requery);
      }
    }
  }
  return woken;
}
