/**
 * When a mutation's transaction starts: a change foreseen on screen (change-on-screen.ts) is
 * painted first, so the frame after the click does not wait for IndexedDB (docs/architecture.md,
 * "The write path").
 */
import { afterNextPaint } from '../timing/after-next-paint.ts';
import type { LinkboardDb } from './db.ts';

/** The last transaction start still waiting (for a paint), per database. */
const waiting = new WeakMap<LinkboardDb, Promise<void>>();
/** When a mutation's transaction last started, per database (performance.now()). */
const lastStart = new WeakMap<LinkboardDb, number>();
/**
 * Mutations that start closer together than this are one burst (a loop over many rows, the two
 * mutations of one Save): the first waits for a paint, the others go at once, or a loop of a
 * thousand would wait a thousand frames. A person's clicks are further apart.
 */
export const BURST_MS = 50;

/** When a mutation last ended (committed or failed), per database (performance.now()). */
const lastEnd = new WeakMap<LinkboardDb, number>();

/** Notes that a mutation of `db` has ended (mutate calls it): the next one within BURST_MS is of its burst. */
export function mutationEnded(db: LinkboardDb): void {
  lastEnd.set(db, performance.now());
}

/**
 * Whether a mutation starting now is part of a burst: less than BURST_MS after the last one started
 * or ended (a loop awaiting each save starts the next as the last one commits, however long that took).
 */
export function inBurst(db: LinkboardDb): boolean {
  const last = Math.max(lastStart.get(db) ?? -Infinity, lastEnd.get(db) ?? -Infinity);
  return performance.now() - last < BURST_MS;
}

/**
 * Waits for this mutation's turn to start its transaction: after the paint when `paintFirst`
 * (unless it is part of a burst), and after any earlier mutation still waiting, so the queue keeps
 * the order of the calls. Resolves with whether it is part of a burst.
 */
export async function turnOf(db: LinkboardDb, paintFirst: boolean): Promise<boolean> {
  const before = waiting.get(db);
  const burst = inBurst(db);
  const paint = paintFirst && !burst;
  if (paint || before) {
    const mine = (before ?? Promise.resolve()).then(() => (paint ? afterPaint() : undefined));
    waiting.set(db, mine);
    await mine;
    if (waiting.get(db) === mine) waiting.delete(db);
  }
  lastStart.set(db, performance.now());
  return burst;
}

/** Resolves once the next frame has been painted (at most 100 ms: a hidden tab paints none). */
function afterPaint(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    afterNextPaint(() => {
      clearTimeout(fallback);
      resolve();
    });
  });
}
