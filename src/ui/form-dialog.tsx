import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { LimitNotice, type PlanLimit } from './limit-notice.tsx';

/** A text field's classes in the app's forms. */
export const fieldInput =
  'mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-600';
export const fieldLabel = 'block text-sm font-medium text-slate-800';

/** A field's error, announced (role alert) and named by the field's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-700 dark:text-red-300">
      {message}
    </p>
  );
}

export interface FormDialogProps {
  title: string;
  description: ReactNode;
  onClose(): void;
  children: ReactNode;
  /** Shown beside the title (the link dialog's favourite star). */
  titleAside?: ReactNode;
  /** A plan limit already reached, said above the fields before anything is filled in. */
  limit?: PlanLimit | null;
}

/**
 * A modal form (Radix Dialog: focus trap, Escape and outside click close it, the focus goes back
 * to what opened it), scrolling within the screen on a phone.
 */
export function FormDialog({ title, description, onClose, children, titleAside, limit }: FormDialogProps) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-dialog bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-dialog max-h-[92vh] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-surface p-6 shadow-xl">
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
            {titleAside}
          </div>
          <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          {limit && (
            <div className="mt-4">
              <LimitNotice limit={limit} />
            </div>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A save the app refused (a plan limit reached since the dialog opened, say), to show in the dialog. */
export interface Refusal {
  message: string;
  /** Grows with each refusal, so the same message said again is announced and focused again. */
  count: number;
}

/** The refusal a dialog shows: `show` is what `mutate` calls in place of a toast; `clear` before a new try. */
export function useRefusal() {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const show = useCallback(
    (message: string) => setRefusal((previous) => ({ message, count: (previous?.count ?? 0) + 1 })),
    [],
  );
  const clear = useCallback(() => setRefusal(null), []);
  return { refusal, show, clear };
}

/**
 * A refused save, inside the dialog that made it (role alert), above its buttons. It takes the
 * focus, so the focus stays in the dialog (Escape still closes it) and the message is read.
 */
export function RefusalAlert({ refusal }: { refusal: Refusal | null }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (refusal) ref.current?.focus();
  }, [refusal]);
  if (!refusal) return null;
  return (
    <p
      key={refusal.count}
      ref={ref}
      role="alert"
      tabIndex={-1}
      className="rounded-lg border border-red-300 dark:border-red-700 bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-800 dark:text-red-200"
    >
      {refusal.message}
    </p>
  );
}

export interface FormActionsProps {
  submit: string;
  /** A save is running: the button says so (aria-disabled) and ignores clicks, but keeps the focus. */
  busy: boolean;
  onCancel(): void;
  /** Actions at the start of the row (Delete). */
  start?: ReactNode;
}

/**
 * Cancel and the submit button, at the end of a dialog's form. The submit button is never made
 * `disabled` while saving: the browser would drop the focus from it to the page's body, out of
 * the dialog, and a refusal would leave the dialog without the focus.
 */
export function FormActions({ submit, busy, onCancel, start }: FormActionsProps) {
  return (
    <div className="flex justify-end gap-3 pt-2">
      {start}
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button
        type="submit"
        aria-disabled={busy || undefined}
        onClick={(event) => {
          if (busy) event.preventDefault();
        }}
      >
        {submit}
      </Button>
    </div>
  );
}
