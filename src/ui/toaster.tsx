import * as RadixToast from '@radix-ui/react-toast';
import { useToasts, type Toast } from './toast-store.ts';

const toneClass: Record<Toast['tone'], string> = {
  info: 'bg-slate-900 text-white',
  success: 'bg-emerald-700 text-white',
  error: 'bg-red-700 text-white',
};

/** How long a notice stays; Radix pauses the timer while it is hovered or focused. */
const DURATION_MS = 5000;

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToasts((state) => state.dismiss);
  const error = toast.tone === 'error';
  return (
    <RadixToast.Root
      // An error (a sync rejection, say) is announced at once (foreground: assertive); other
      // notices politely (background).
      type={error ? 'foreground' : 'background'}
      duration={DURATION_MS}
      onOpenChange={(open) => {
        if (!open) dismiss(toast.id);
      }}
      className={`flex items-start gap-3 rounded-lg px-4 py-3 text-sm shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:hidden ${toneClass[toast.tone]}`}
    >
      <RadixToast.Description className="flex-1">{toast.message}</RadixToast.Description>
      <RadixToast.Close aria-label="Dismiss" className="opacity-80 hover:opacity-100">
        ×
      </RadixToast.Close>
    </RadixToast.Root>
  );
}

/**
 * The toast area (Radix Toast): transient notices announced to screen readers (errors
 * assertively), paused while hovered or focused, dismissed by swipe, Escape or ×; F8 moves the
 * focus to them.
 */
export function Toaster() {
  const toasts = useToasts((state) => state.toasts);
  return (
    <RadixToast.Provider swipeDirection="right" label="Notification">
      {toasts.map((item) => (
        <ToastItem key={item.id} toast={item} />
      ))}
      <RadixToast.Viewport
        label="Notifications ({hotkey})"
        className="fixed right-4 bottom-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2 outline-none"
      />
    </RadixToast.Provider>
  );
}
