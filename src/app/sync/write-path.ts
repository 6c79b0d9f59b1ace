/**
 * The code a change needs (the mutators, their checks, the toasts that say a change was refused),
 * loaded before the user can lose the network: docs/architecture.md, "The write path".
 *
 * A page the service worker serves loads it at the first sign of a change to come (a key, a pointer
 * or a touch going down): offline, the chunks come from the worker's precache. A page no worker
 * serves yet (a first visit while the worker installs, a browser or a private window without
 * service workers) would find the network gone when the change comes, and a module the browser failed
 * to load stays failed until the page is reloaded: there it loads once the first screen is shown
 * and the browser is idle.
 */
import { onFirstIntent } from '../../ui/first-intent.ts';
import { afterScreenShown } from '../../ui/screen-shown.ts';
import { loadToaster } from '../../ui/toaster-loader.ts';
import { whenIdle } from '../../timing/when-idle.ts';

type MutateModule = typeof import('../../data/mutate.ts');
let mutateModule: MutateModule | null = null;

/** The mutate module once loaded (a change then no longer waits a task for `import()`). */
export function loadedMutate(): MutateModule | null {
  return mutateModule;
}

/** The mutate module and the mutators it runs. */
export function loadMutate(): Promise<MutateModule> {
  return Promise.all([import('../../data/mutate.ts'), import('../../data/mutators.ts')]).then(
    ([loaded]) => (mutateModule = loaded),
  );
}

/** Whether a service worker answers this page's requests (its precache has every chunk). */
export function servedByWorker(): boolean {
  return typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;
}

/** The first screen can wait this long for its content before the warm-up goes anyway. */
const SCREEN_LIMIT_MS = 3000;
/** How long the warm-up waits for an idle moment after the first screen. */
const IDLE_LIMIT_MS = 2000;

/**
 * Loads the write path at the first intent and, on a page no service worker serves, once the
 * first screen is shown and the browser idle. Answers a cancel.
 */
export function warmWritePath(): () => void {
  const load = () => void Promise.all([loadMutate(), loadToaster()]).catch(() => undefined);
  const cancelIntent = onFirstIntent(load);
  if (servedByWorker()) return cancelIntent;
  let cancelIdle = () => {};
  const cancelShown = afterScreenShown(() => {
    cancelIdle = whenIdle(() => {
      cancelIntent();
      load();
    }, IDLE_LIMIT_MS);
  }, SCREEN_LIMIT_MS);
  return () => {
    cancelIntent();
    cancelShown();
    cancelIdle();
  };
}
