import * as Dialog from '@radix-ui/react-dialog';
import type { EventRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { toast } from '../../ui/toast-store.ts';
import { failureText, type CalendarScreen } from './calendar-messages.ts';

export interface DeleteEventDialogProps {
  item: EventRow;
  screen: CalendarScreen;
  onClose(): void;
}

/**
 * Deleting an event or task (docs/product.md, Calendar): a plain one asks 'Are you sure you want to delete this
 * event?'; a series member opens 'Delete Recurring Event' with this one, all, or Cancel.
 */
export function DeleteEventDialog({ item, screen, onClose }: DeleteEventDialogProps) {
  const { mutate } = useUserDb();
  const texts = failureText[screen];

  async function remove(scope: 'single' | 'all') {
    onClose();
    try {
      if (scope === 'all' && item.series_id) await mutate('series.delete', { series_id: item.series_id });
      else await mutate('event.delete', { id: item.id });
    } catch {
      toast(item.series_id ? texts.deleteMany : texts.deleteOne, 'error');
    }
  }

  if (!item.series_id) {
    return (
      <ConfirmDialog
        open
        title={item.is_task ? 'Delete Task' : 'Delete Event'}
        message="Are you sure you want to delete this event?"
        confirmLabel="Delete"
        tone="danger"
        onConfirm={() => void remove('single')}
        onCancel={onClose}
      />
    );
  }
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-dialog bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-dialog w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-surface p-6 shadow-xl">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Delete Recurring Event</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-700">
            “{item.title}” is part of a recurring series.
          </Dialog.Description>
          <div className="mt-6 flex flex-col gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="secondary" onClick={() => void remove('single')}>
              Delete Only This Event
            </Button>
            <Button variant="danger" onClick={() => void remove('all')}>
              Delete All Events in Series
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
