import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadCookieBanner } from './app/app.tsx';
import { preloadRoute } from './app/routes.tsx';
import { needsUser } from './app/route-guard.tsx';
import { useCurrentUser } from './backend/current-user-store.ts';
import { rememberedUsername } from './backend/remembered-username.ts';
import { readStoredSessionUser } from './backend/session-storage.ts';
import { warmUserDb } from './app/boot/warm-user-db.ts';
import { loadTemporal } from './domain/temporal-runtime.ts';
import { followSystemTheme } from './ui/theme/theme.ts';
import './index.css';

// The theme was set before the first paint (public/theme-boot.js); follow the system's switches.
followSystemTheme();

if (import.meta.env.VITE_BENCH === '1') void import('./perf/bench-hook.ts');

// ICU's first use (the first number or date a screen formats) is paid by a worker meanwhile
// (src/app/boot/intl-warmup.worker.ts), on a device that remembers a user: its screens format both.
if (rememberedUsername() !== null && typeof Worker === 'function') {
  try {
    new Worker(new URL('./app/boot/intl-warmup.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    // Not worth failing a start for.
  }
}

// Who is signed in (the stored session, and offline the cached profile: IndexedDB reads) is read
// while the screen's chunks load, not after the first render, on a device that remembers a user
// (the route guard asks the same on its first render and waits for this load).
// The user's database is opened meanwhile too (src/app/boot/warm-user-db.ts).
if (rememberedUsername() !== null && needsUser(location.pathname)) {
  void useCurrentUser.getState().ensureLoaded();
  void readStoredSessionUser().then((user) => {
    if (user) warmUserDb(user.id);
  });
}

// The screen's chunks first (from the service worker's cache, a few ms), and the cookie banner's
// while no choice is stored, so the first render shows the screen (and the banner) rather than a
// fallback; a slow network waits no more than 300 ms for them.
// Not a top-level await: Rolldown turns its chunk optimizations (merging common chunks, avoiding
// redundant chunk loads) off for a whole build with one, and every screen then loads dozens of tiny chunks.
const chunks = Promise.all([preloadRoute(location.pathname), preloadCookieBanner()?.catch(() => undefined)]);
// Temporal's polyfill, only in a browser without Temporal (temporal-runtime.ts): every screen that
// reads a date needs it, so the first render waits for it whatever the network (a failed load
// leaves those screens to their error boundary).
const temporal = loadTemporal()?.catch(() => undefined);
const screen = Promise.race([chunks, new Promise((resolve) => setTimeout(resolve, 300))]);
void Promise.all([screen, temporal]).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
