/**
 * The one frame helper of the app, for every layer: it imports nothing of ours (docs/architecture.md,
 * the folder table), so src/ui and src/data may both import it.
 */

/**
 * Runs `run` after the next frame is painted (the task after its animation frame), or after the
 * current task where no frames run (a test's DOM). A hidden tab paints no frame: `run` waits until
 * it is shown. Answers a cancel.
 */
export function afterNextPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    timer = setTimeout(run, 0);
  };
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(later) : undefined;
  if (frame === undefined) later();
  return () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
