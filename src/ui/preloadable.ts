import {
  createElement,
  lazy,
  useEffect,
  useRef,
  type ComponentType,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { onFirstIntent } from './first-intent.ts';
import { toast } from './toast-store.ts';
import { whenIdle } from '../timing/when-idle.ts';

export interface Preloadable {
  /** Starts loading the component's chunk (once); resolves when it is loaded. */
  preload(): Promise<unknown>;
}

/** What a dialog whose code could not be fetched (offline before it was ever loaded) says instead. */
export const DIALOG_LOAD_FAILED = 'This could not be opened. Check your connection and try again.';

/** How the page loads again (tests put their own). */
let reloadPage: () => void = () => location.reload();

/** Puts how the page loads again (tests); answers the one before. */
export function setReloadPage(reload: () => void): () => void {
  const before = reloadPage;
  reloadPage = reload;
  return before;
}

/** When the page last loaded again for a chunk (sessionStorage), and how long until it may again. */
export const CHUNK_RELOAD_KEY = 'linkboard-chunk-reload';
const CHUNK_RELOAD_GUARD_MS = 30_000;

/**
 * Loads the page again, on the same screen, when a chunk's code failed to load again while the
 * browser says it is online. Chromium keeps a module's failed fetch for the life of the page (an
 * `import()` of it fails again at once, with no request), so only a new page fetches it. At most
 * once in CHUNK_RELOAD_GUARD_MS, so a chunk that is really gone is said to be, not loaded forever.
 * Answers whether it did.
 */
function reloadForFailedChunk(): boolean {
  if (typeof navigator === 'undefined' || !navigator.onLine) return false;
  try {
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (Date.now() - last < CHUNK_RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
  } catch {
    return false;
  }
  reloadPage();
  return true;
}

/** How a component whose load failed gets a fresh try: the renewals waiting for `retryFailedLoads`. */
const failedLoads = new Set<() => void>();

/**
 * Lets each component whose chunk failed to load try again at its next render. A screen's error
 * boundary calls it when the user moves on (React's `lazy` keeps a rejection for good; until this is
 * called, renders while the error shows do not fetch again).
 */
export function retryFailedLoads(): void {
  const renewals = [...failedLoads];
  failedLoads.clear();
  for (const renew of renewals) renew();
}

/**
 * Lazily loads a named export, so each screen (or a dialog) is its own chunk. Once its chunk is loaded
 * (say by `preloadRoute` at boot) the component renders at once instead of suspending: React throttles
 * the reveal of suspended content by 300 ms, which a warm start cannot afford twice.
 *
 * A chunk that cannot be fetched (offline before it was ever loaded, with no service worker to hold
 * it) is fetched again on a later try; where the browser keeps the failure (Chromium), a later try
 * online loads the page again instead (`reloadForFailedChunk`). Without `fallback` the failure reaches the screen's error
 * boundary, and the next try is when that boundary resets (`retryFailedLoads`). With `fallback` (a
 * dialog's `DialogLoadFailed`) that renders instead, so the dialog does not take its screen down with
 * it, and the next try is when the dialog opens again.
 */
export function preloadable<P extends object, M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M,
  fallback?: ComponentType<P>,
) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  let failures = 0;
  const preload = () =>
    (loading ??= load().then(
      (module) => ({ default: (loaded = module[name] as ComponentType<P>) }),
      (error: unknown) => {
        loading = null;
        failures += 1;
        throw error;
      },
    ));
  const renew = () => {
    Lazy = fresh();
  };
  /** The fallback, which lets the next mount fetch again once it is gone. */
  function Failed(props: P): ReactNode {
    useEffect(() => renew, []);
    return fallback ? createElement(fallback, props) : null;
  }
  const fresh = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(() =>
      preload().catch((error: unknown) => {
        // Opened again (not a preload) after an earlier failure, online: only a new page fetches it.
        if (failures > 1 && reloadForFailedChunk()) return new Promise<never>(() => undefined);
        if (!fallback) {
          failedLoads.add(renew);
          throw error;
        }
        return { default: Failed };
      }),
    );
  let Lazy = fresh();
  return Object.assign((props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy, props)), { preload });
}

/**
 * The fallback of a dialog (`preloadable`'s third argument) whose code could not be fetched: it says
 * so and closes, leaving the screen as it was; opening the dialog again fetches it again.
 */
export function DialogLoadFailed({ onClose }: { onClose(): void }): null {
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    toast(DIALOG_LOAD_FAILED, 'error');
    onClose();
  }, [onClose]);
  return null;
}

/**
 * Starts `preload` (a screen's dialogs' chunks) at the first key, pointer or touch going down, or
 * once the screen is idle, whichever comes first, so a click finds them loaded, offline too.
 */
export function usePreloadWhenIdle(preload: () => void): void {
  useEffect(() => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      preload();
    };
    const cancelIntent = onFirstIntent(once);
    const cancelIdle = whenIdle(once, IDLE_LIMIT_MS);
    return () => {
      cancelIntent();
      cancelIdle();
    };
  }, [preload]);
}

/** How long a screen's dialogs wait for an idle moment before they load anyway. */
const IDLE_LIMIT_MS = 3000;
