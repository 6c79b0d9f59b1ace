import { create } from 'zustand';

export type ToastTone = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

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
