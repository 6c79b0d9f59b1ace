import { create } from 'zustand';

export type ToastTone = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

/**
 * How long a notice stays. An error (a change the server refused after the fact) has no action
 * and is not tied to the screen it arrived on, so it times out too, after longer to read it; the
 * time is paused while the toasts are hovered or focused (F8). Navigation does not dismiss it: a
 * refusal that arrives as the user moves on must still be read.
 */
export const NOTICE_MS = 5000;
export const ERROR_MS = 8000;

/** The toast list keeps at most this many entries (docs/product.md, Plans and limits). */
export const TOAST_LIMIT = 20;

interface ToastState {
  toasts: Toast[];
  push(message: string, tone?: ToastTone): number;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToasts = create<ToastState>((set) => ({
  toasts: [],
  push(message, tone = 'info') {
    const id = nextId++;
    set((state) => ({ toasts: [...state.toasts, { id, message, tone }].slice(-TOAST_LIMIT) }));
    return id;
  },
  dismiss(id) {
    set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
  },
}));

/** Shows a transient notice. */
export function toast(message: string, tone: ToastTone = 'info'): number {
  return useToasts.getState().push(message, tone);
}
