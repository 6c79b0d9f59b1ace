import { useLayoutEffect } from 'react';
import { Button } from '../../ui/button.tsx';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Over a page shown from its offline copy: says so, and when the copy is from. */
export function OfflineCopyNote({ savedAt }: { savedAt: string }) {
  return (
    <p
      role="status"
      className="mb-6 rounded-xl border border-amber-300 dark:border-amber-700 bg-amber-50 dark:bg-amber-950/40 px-4 py-3 text-sm text-amber-900 dark:text-amber-100"
    >
      You are offline. This is the copy you saw on {when(savedAt)}; it may have changed since.
    </p>
  );
}

/** A public page that never loaded on this device, opened without a network. */
export function OfflinePage({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">You are offline</h1>
      <p className="mt-2 text-slate-600">This page needs the internet the first time. Connect and try again.</p>
      <Button className="mt-6" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * Calls `reload` when the browser comes back online, while `active`. Listening from the commit
 * that shows the offline state (a layout effect), so a connection back right after it is seen.
 */
export function useReloadWhenOnline(active: boolean, reload: () => void) {
  useLayoutEffect(() => {
    if (!active) return;
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [active, reload]);
}
