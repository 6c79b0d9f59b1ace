/**
 * What the app's build gives a module that imports `temporal-polyfill` (vite.config.ts,
 * nativeTemporal): the browser's own Temporal where it has one (Chromium 144 on, Firefox 139 on),
 * so those browsers never download the polyfill (about 19 KB gzipped on every calendar and
 * dashboard screen), and the polyfill elsewhere, loaded by loadTemporal() before the first render
 * (main.tsx). No module reads Temporal while it is evaluated, only when it renders or runs.
 * Tests, the local stack, the functions and the service worker import the polyfill itself.
 */
import type { Temporal as Polyfill } from 'temporal-polyfill';

type TemporalApi = typeof Polyfill;

/** The browser's Temporal, or the polyfill's once loadTemporal() has resolved. */
export let Temporal: TemporalApi = (globalThis as { Temporal?: TemporalApi }).Temporal as TemporalApi;

/** Loads the polyfill where the browser has no Temporal; undefined where nothing needs loading. */
export function loadTemporal(): Promise<void> | undefined {
  if (Temporal) return undefined;
  return import('temporal-polyfill/implementation').then((loaded) => {
    Temporal = loaded.Temporal as unknown as TemporalApi;
  });
}
