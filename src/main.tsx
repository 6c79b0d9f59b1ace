import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadRoute } from './app/routes.tsx';
import './index.css';

if (import.meta.env.VITE_BENCH === '1') void import('./perf/bench-hook.ts');

// The screen's chunks first (from the service worker's cache, a few ms), so the first render
// shows the screen rather than a fallback; a slow network waits no more than 300 ms for them.
await Promise.race([preloadRoute(location.pathname), new Promise((resolve) => setTimeout(resolve, 300))]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
