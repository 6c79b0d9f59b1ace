import { useEffect, useState } from 'react';
import type { Workbox } from 'workbox-window';

/**
 * Registers the service worker (production builds) and, when a new version is waiting,
 * offers to reload into it.
 */
export function UpdatePrompt() {
  const [waiting, setWaiting] = useState<Workbox | null>(null);

  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    let cancelled = false;
    void import('workbox-window').then(({ Workbox }) => {
      if (cancelled) return;
      const wb = new Workbox('/sw.js', { scope: '/' });
      wb.addEventListener('waiting', () => setWaiting(wb));
      wb.addEventListener('controlling', (event) => {
        if (event.isUpdate) location.reload();
      });
      void wb.register();
    });
    return () => {
      cancelled = true;
    };
  }, []);

  if (!waiting) return null;
  // Bottom left of the content, beside the sidebar (AppShell sets --sidebar-width), never over
  // its footer; under the mobile drawer and dialogs.
  return (
    <div
      role="status"
      className="fixed right-4 bottom-4 left-4 z-40 flex items-center gap-3 rounded-lg bg-slate-900 px-4 py-3 text-sm text-white shadow-lg sm:right-auto sm:max-w-md md:left-[calc(var(--sidebar-width,0px)+1rem)]"
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
