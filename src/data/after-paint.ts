/**
 * When a mutation's transaction starts: a change foreseen on screen (change-on-screen.ts) is
 * painted first, so the frame after the click does not wait for IndexedDB (docs/architecture.md,
 * "The write path").
 */
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

/**
 * Waits for this mutation's turn to start its transaction: after the paint when `paintFirst`
 * (unless it is part of a burst), and after any earlier mutation still waiting, so the queue keeps
 * the order of the calls.
 */
export async function turnOf(db: LinkboardDb, paintFirst: boolean): Promise<void> {
  const before = waiting.get(db);
  const last = lastStart.get(db);
  const paint = paintFirst && (last === undefined || performance.now() - last >= BURST_MS);
  if (paint || before) {
    const mine = (before ?? Promise.resolve()).then(() => (paint ? afterPaint() : undefined));
    waiting.set(db, mine);
    await mine;
    if (waiting.get(db) === mine) waiting.delete(db);
  }
  lastStart.set(db, performance.now());
}

/** Resolves once the next frame has been painted (at most 100 ms: a hidden tab paints none). */
function afterPaint(): Promise<void> {
  if (typeof requestAnimationFrame !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}
