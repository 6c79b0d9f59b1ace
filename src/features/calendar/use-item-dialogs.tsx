import { Suspense, useMemo, useState, type ReactNode } from 'react';
import type { EventRow } from '../../data/rows.ts';
import type { Tier } from '../../domain/plans.ts';
import type { PlanLimit } from '../../ui/limit-notice.tsx';
import type { CalendarScreen } from './calendar-messages.ts';
import { DialogLoadFailed, preloadable, usePreloadWhenIdle } from '../../ui/preloadable.ts';
import type { EventDialogProps } from './event-dialog.tsx';
import type { DeleteEventDialogProps } from './delete-event-dialog.tsx';

/**
 * The dialogs (the form, its checks, the series' rules) are chunks of their own, in no screen's
 * first load: a warm start compiles only what its first frame shows. They are fetched at the first
 * intent or once the screen is idle, so a click finds them, offline too.
 */
const EventDialog = preloadable<EventDialogProps, typeof import('./event-dialog.tsx')>(
  () => import('./event-dialog.tsx'),
  'EventDialog',
  DialogLoadFailed,
);
const DeleteEventDialog = preloadable<DeleteEventDialogProps, typeof import('./delete-event-dialog.tsx')>(
  () => import('./delete-event-dialog.tsx'),
  'DeleteEventDialog',
  DialogLoadFailed,
);

function preloadDialogs(): void {
  void Promise.all([
    EventDialog.preload()
      .then(() => import('./event-dialog.tsx'))
      .then(({ preloadPlanField }) => preloadPlanField()),
    DeleteEventDialog.preload(),
  ]).catch(() => undefined);
}

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
  // The dialogs and the typed-plan field, fetched at the first intent or once the screen is idle.
  usePreloadWhenIdle(preloadDialogs);
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
  // Until its chunk is in (a click before the preload ended), the dialog opens a moment later.
  return { ...openers, dialog: dialog && <Suspense fallback={null}>{dialog}</Suspense> };
}
