import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { EventRow } from '../../data/rows.ts';
import type { Tier } from '../../domain/plans.ts';
import type { PlanLimit } from '../../ui/limit-notice.tsx';
import type { CalendarScreen } from './calendar-messages.ts';
import { DeleteEventDialog } from './delete-event-dialog.tsx';
import { EventDialog, preloadPlanField } from './event-dialog.tsx';
import { whenIdle } from '../../ui/when-idle.ts';

type Open =
  | { kind: 'add'; start?: string; task?: boolean; plan?: string }
  | { kind: 'edit'; item: EventRow }
  | { kind: 'delete'; item: EventRow };

export interface ItemDialogs {
  /** `task`: the new item starts as a task ('This is a task' on). */
  add(start?: string, task?: boolean, plan?: string): void;
  edit(item: EventRow): void;
  remove(item: EventRow): void;
  /** The open dialog, to render once on the screen. */
  dialog: ReactNode;
}

/**
 * The add, edit and delete dialogs of one screen (Calendar or Upcoming share them). An add or
 * edit asked for before the user's settings are read (`settingsRead`: a click the moment the
 * screen opens) opens once they are, a few milliseconds later, so it starts with the profile's
 * default reminder, plan and zone rather than the defaults.
 */
export function useItemDialogs(
  screen: CalendarScreen,
  tier: Tier,
  timeZone: string,
  defaultReminder: number | null = null,
  settingsRead = true,
  /** The month's events limit once reached (use-calendar-screen.ts), said in the dialog. */
  eventLimit: PlanLimit | null = null,
): ItemDialogs {
  const [open, setOpen] = useState<Open | null>(null);
  // The dialog's typed-plan field, fetched once the screen is idle, so it opens offline too.
  useEffect(() => whenIdle(() => void preloadPlanField(), 3000), []);
  // Stable openers: screens call them from effects (?new=event) and pass them down.
  const openers = useMemo(
    () => ({
      add: (start?: string, task?: boolean, plan?: string) => setOpen({ kind: 'add', start, task, plan }),
      edit: (item: EventRow) => setOpen({ kind: 'edit', item }),
      remove: (item: EventRow) => setOpen({ kind: 'delete', item }),
    }),
    [],
  );
  const close = () => setOpen(null);
  let dialog: ReactNode = null;
  if (open?.kind === 'delete') dialog = <DeleteEventDialog item={open.item} screen={screen} onClose={close} />;
  else if (open && settingsRead) {
    dialog = (
      <EventDialog
        item={open.kind === 'edit' ? open.item : null}
        start={open.kind === 'add' ? open.start : undefined}
        task={open.kind === 'add' && open.task === true}
        plan={open.kind === 'add' ? open.plan : undefined}
        tier={tier}
        timeZone={timeZone}
        defaultReminder={defaultReminder}
        eventLimit={eventLimit}
        screen={screen}
        onClose={close}
      />
    );
  }
  return { ...openers, dialog };
}
