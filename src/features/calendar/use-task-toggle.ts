import type { EventRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { toast } from '../../ui/toast-store.ts';
import { failureText, type CalendarScreen } from './calendar-messages.ts';

/** Completes a task or returns it to pending (the toggle and 'Undo', docs/product.md, Calendar). */
export function useTaskToggle(screen: CalendarScreen): (item: EventRow, value: boolean) => void {
  const { mutate } = useUserDb();
  return (item, value) => {
    mutate('task.set_completed', { id: item.id, value }).catch(() => toast(failureText[screen].toggle, 'error'));
  };
}
