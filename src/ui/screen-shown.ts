/**
 * Work that waits for the first screen (docs/architecture.md, Boot without a fallback): a start
 * paints the screen's content first, then the sync engine's first sync and Realtime begin. A screen
 * that reads the local database calls `useScreenShown(ready)`; the waiting work runs after the
 * frame that paints it, or after its own time limit on a screen that never says.
 */
import { useEffect } from 'react';
import { afterNextPaint } from '../timing/after-next-paint.ts';

let shown = false;
const waiting = new Set<() => void>();

function flush(): void {
  const runs = [...waiting];
  waiting.clear();
  for (const run of runs) run();
}

/** The screen's content is in the DOM: the waiting work runs after the frame that paints it. */
export function markScreenShown(): void {
  if (shown) return;
  shown = true;
  // A hidden tab paints no frame: the work's own time limit starts it there.
  afterNextPaint(flush);
}

/** Runs `run` once the first screen is shown, at the latest after `limitMs`. Answers a cancel. */
export function afterScreenShown(run: () => void, limitMs: number): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    waiting.delete(once);
    clearTimeout(timer);
    run();
  };
  const timer = setTimeout(once, shown ? 0 : limitMs);
  if (!shown) waiting.add(once);
  return () => {
    done = true;
    waiting.delete(once);
    clearTimeout(timer);
  };
}

/** Marks the screen shown once `ready` (its first local read rendered). */
export function useScreenShown(ready: boolean): void {
  useEffect(() => {
    if (ready) markScreenShown();
  }, [ready]);
}
