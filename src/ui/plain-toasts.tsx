import { useEffect } from 'react';
import { ERROR_MS, NOTICE_MS, useToasts, type Toast } from './toast-store.ts';

/** A notice's colours by tone (the toast area's too). */
export const toastToneClass: Record<Toast['tone'], string> = {
  info: 'bg-slate-900 text-slate-50',
  success: 'bg-emerald-700 text-white',
  error: 'bg-red-700 text-white',
};

function PlainToast({ toast }: { toast: Toast }) {
  const dismiss = useToasts((state) => state.dismiss);
  const error = toast.tone === 'error';
  useEffect(() => {
    const timer = window.setTimeout(() => dismiss(toast.id), error ? ERROR_MS : NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [dismiss, error, toast.id]);
  return (
    <li
      role={error ? 'alert' : 'status'}
      className={`flex items-start gap-3 rounded-lg px-4 py-3 text-sm shadow-lg ${toastToneClass[toast.tone]}`}
    >
      <span className="flex-1">{toast.message}</span>
      <button
        type="button"
        aria-label="Dismiss"
        className="opacity-80 hover:opacity-100"
        onClick={() => dismiss(toast.id)}
      >
        ×
      </button>
    </li>
  );
}

/**
 * The notices without the toast area's own chunk (src/ui/toaster.tsx), for a page that could not
 * load it: the same texts, tones and times, each dismissed by its × or its time.
 */
export function PlainToasts() {
  const toasts = useToasts((state) => state.toasts);
  return (
    <ol
      aria-label="Notifications"
      className="fixed right-4 bottom-[calc(1rem+var(--cookie-banner-space,0px))] z-toast flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2"
    >
      {toasts.map((item) => (
        <PlainToast key={item.id} toast={item} />
      ))}
    </ol>
  );
}
