import { useEffect, useState } from 'react';
import type { Workbox } from 'workbox-window';
import { whenIdle } from '../timing/when-idle.ts';

/**
 * Calls `run` once the page has loaded and the main thread is idle: the service worker's install
 * precaches the app, which must not compete with the first screen for the network or the CPU.
 */
function whenLoadedAndIdle(run: () => void): () => void {
  let cancel: () => void = () => undefined;
  const idle = () => {
    cancel = whenIdle(run, 2_000);
  };
  if (document.readyState === 'complete') idle();
  else {
    window.addEventListener('load', idle, { once: true });
    cancel = () => window.removeEventListener('load', idle);
  }
  return () => cancel();
}

/**
 * Registers the service worker (production builds) through workbox-window, loaded once the page is
 * idle, and, when a new version is waiting, offers to reload into it.
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState<Workbox | null>(null);

  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    let cancelled = false;
    const cancelWait = whenLoadedAndIdle(() => {
      void import('workbox-window')
        .then(({ Workbox }) => {
          if (cancelled) return;
          const wb = new Workbox('/sw.js', { scope: '/' });
          wb.addEventListener('waiting', () => setWaiting(wb));
          wb.addEventListener('controlling', (event) => {
            if (event.isUpdate) location.reload();
          });
          // The page has loaded already: register now rather than on a load event that has passed.
          return wb.register({ immediate: true });
        })
        .catch((error: unknown) => console.warn('Service worker registration failed', error));
    });
    return () => {
      cancelled = true;
      cancelWait();
    };
  }, []);

  if (!waiting) return null;
  // Bottom left of the content, beside the sidebar (AppShell sets --sidebar-width), never over
  // its footer; under the mobile drawer and dialogs.
  return (
    <div
      role="status"
      className="fixed right-4 bottom-[calc(1rem+var(--cookie-banner-space,0px))] left-4 z-banner flex items-center gap-3 rounded-lg bg-slate-900 px-4 py-3 text-sm text-slate-50 shadow-lg sm:right-auto sm:max-w-md md:left-[calc(var(--sidebar-width,0px)+1rem)]"
    >
      <span className="flex-1">A new version of Linkboard is available.</span>
      <button type="button" className="font-semibold underline" onClick={() => waiting.messageSkipWaiting()}>
        Reload
      </button>
      <button type="button" aria-label="Dismiss" onClick={() => setWaiting(null)}>
        ×
      </button>
    </div>
  );
}
