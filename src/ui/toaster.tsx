import * as RadixToast from '@radix-ui/react-toast';
import { useEffect, useState } from 'react';
import { toastToneClass } from './plain-toasts.tsx';
import { ERROR_MS, NOTICE_MS, useToasts, type Toast } from './toast-store.ts';

/**
 * The toast's own close timer. Radix's is not used: its viewport keeps a 'paused' flag that
 * outlives the last toast when that one leaves while hovered or focused (× clicked, Escape), and
 * every later toast then waits for a resume that never comes and stays on screen for good.
 * Radix still tells this timer when to pause and resume (onPause, onResume).
 */
function closeTimer(duration: number, close: () => void) {
  let remaining = duration;
  let started = 0;
  let timer = 0;
  const start = () => {
    window.clearTimeout(timer);
    started = Date.now();
    timer = window.setTimeout(close, remaining);
  };
  return {
    start,
    pause() {
      if (!timer) return;
      window.clearTimeout(timer);
      timer = 0;
      remaining = Math.max(0, remaining - (Date.now() - started));
    },
    resume() {
      if (!timer) start();
    },
  };
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToasts((state) => state.dismiss);
  const error = toast.tone === 'error';
  const [timer] = useState(() => closeTimer(error ? ERROR_MS : NOTICE_MS, () => dismiss(toast.id)));
  useEffect(() => {
    timer.start();
    return () => timer.pause();
  }, [timer]);
  return (
    <RadixToast.Root
      // An error (a sync rejection, say) is announced at once (foreground: assertive); other
      // notices politely (background).
      type={error ? 'foreground' : 'background'}
      duration={Infinity}
      onPause={timer.pause}
      onResume={timer.resume}
      onOpenChange={(open) => {
        if (!open) dismiss(toast.id);
      }}
      className={`flex items-start gap-3 rounded-lg px-4 py-3 text-sm shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:hidden ${toastToneClass[toast.tone]}`}
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
 * focus to them. It is the top layer (above an open dialog's overlay, so a notice that arrives
 * then is seen), and sits above the cookie banner while that shows (--cookie-banner-space, set
 * by the banner), never on its buttons.
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
        className="fixed right-4 bottom-[calc(1rem+var(--cookie-banner-space,0px))] z-toast flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2 outline-none"
      />
    </RadixToast.Provider>
  );
}
