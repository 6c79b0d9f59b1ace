import { createElement, lazy, useEffect, type ComponentType } from 'react';
import { onFirstIntent } from './first-intent.ts';
import { whenIdle } from './when-idle.ts';

export interface Preloadable {
  /** Starts loading the component's chunk (once); resolves when it is loaded. */
  preload(): Promise<unknown>;
}

/**
 * Lazily loads a named export, so each screen (or a dialog) is its own chunk. Once its chunk is loaded
 * (say by `preloadRoute` at boot) the component renders at once instead of suspending: React throttles
 * the reveal of suspended content by 300 ms, which a warm start cannot afford twice.
 */
export function preloadable<P extends object, M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M,
) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (module) => ({ default: (loaded = module[name] as ComponentType<P>) }),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  const Lazy = lazy(preload);
  return Object.assign((props: P) => (loaded ? createElement(loaded, props) : createElement(Lazy, props)), { preload });
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
