import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';

/** A text field's classes in the app's forms. */
export const fieldInput =
  'mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-600';
export const fieldLabel = 'block text-sm font-medium text-slate-800';

/** A field's error, announced (role alert) and named by the field's aria-describedby. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-sm text-red-700">
      {message}
    </p>
  );
}

export interface FormDialogProps {
  title: string;
  description: ReactNode;
  onClose(): void;
  children: ReactNode;
}

/**
 * A modal form (Radix Dialog: focus trap, Escape and outside click close it, the focus goes back
 * to what opened it), scrolling within the screen on a phone.
 */
export function FormDialog({ title, description, onClose, children }: FormDialogProps) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[92vh] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Cancel and the submit button, at the end of a dialog's form. */
export function FormActions({ submit, busy, onCancel }: { submit: string; busy: boolean; onCancel(): void }) {
  return (
    <div className="flex justify-end gap-3 pt-2">
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={busy}>
        {submit}
      </Button>
    </div>
  );
}
