/** The first sign that the user is about to act: a key, a pointer or a touch going down anywhere. */
const INTENT_EVENTS = ['keydown', 'pointerdown', 'touchstart'] as const;

/** Runs `run` once, at the first intent; returns a function that cancels it. */
export function onFirstIntent(run: () => void): () => void {
  let done = false;
  const fire = () => {
    if (done) return;
    done = true;
    cancel();
    run();
  };
  const cancel = () => {
    for (const type of INTENT_EVENTS) window.removeEventListener(type, fire, true);
  };
  for (const type of INTENT_EVENTS) window.addEventListener(type, fire, { capture: true, passive: true });
  return cancel;
}
