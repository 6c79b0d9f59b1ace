import { useEffect } from 'react';
import { useToasts, type Toast } from './toast-store.ts';

const toneClass: Record<Toast['tone'], string> = {
  info: 'bg-slate-900 text-white',
  success: 'bg-emerald-700 text-white',
  error: 'bg-red-700 text-white',
};

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToasts((state) => state.dismiss);
  useEffect(() => {
    const timer = window.setTimeout(() => dismiss(toast.id), 5000);
    return () => window.clearTimeout(timer);
  }, [dismiss, toast.id]);
  return (
    <li className={`flex items-start gap-3 rounded-lg px-4 py-3 text-sm shadow-lg ${toneClass[toast.tone]}`}>
      {/* An error (a sync rejection, say) is an alert, announced at once; other notices politely. */}
      <span role={toast.tone === 'error' ? 'alert' : 'status'} className="flex-1">
        {toast.message}
      </span>
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

/** The toast area: transient notices, each announced to screen readers (errors as alerts). */
export function Toaster() {
  const toasts = useToasts((state) => state.toasts);
  return (
    <ol
      aria-label="Notifications"
      className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2 [&>li]:pointer-events-auto"
    >
      {toasts.map((item) => (
        <ToastItem key={item.id} toast={item} />
      ))}
    </ol>
  );
}
