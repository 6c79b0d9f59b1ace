import * as Dialog from '@radix-ui/react-dialog';
import { Link } from 'react-router-dom';
import { downgradeNotice } from '../../domain/downgrade-notice.ts';
import type { Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';

export interface DowngradeDialogProps {
  from: Tier;
  to: Tier;
  username: string | null;
  onClose(): void;
}

/** What a downgrade keeps and stops, with the way back to the plans. */
export function DowngradeDialog({ from, to, username, onClose }: DowngradeDialogProps) {
  const notice = downgradeNotice(from, to);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-dialog bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-dialog w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-surface p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{notice.title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 space-y-2 text-sm text-slate-700">
              {notice.text.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </Dialog.Description>
          <div className="mt-5 flex flex-wrap justify-end gap-3">
            <Link
              to={username ? `/Upgrade/${username}` : '/Upgrade'}
              onClick={onClose}
              className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50"
            >
              See plans
            </Link>
            <Button onClick={onClose}>OK</Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
