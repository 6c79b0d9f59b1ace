import * as Dialog from '@radix-ui/react-dialog';
import { Link } from 'react-router-dom';
import { Button } from './button.tsx';
import { upgradeLinkClass, type PlanLimit } from './limit-notice.tsx';

export interface UpsellDialogProps {
  /** The action asked for ('Create Directory'): the dialog's name. */
  title: string;
  limit: PlanLimit;
  onClose(): void;
}

/**
 * What an entry point opens in place of its form once a plan limit is reached: the product's
 * message, 'Upgrade to Pro' (the Upgrade page) and Close, before anything is filled in.
 */
export function UpsellDialog({ title, limit, onClose }: UpsellDialogProps) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-dialog bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-dialog w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-surface p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-700">{limit.message}</Dialog.Description>
          {limit.note && <p className="mt-2 text-sm text-slate-700">{limit.note}</p>}
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Link to={limit.upgradeTo} onClick={onClose} className={`${upgradeLinkClass} px-4 py-2`}>
              Upgrade to Pro
            </Link>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
