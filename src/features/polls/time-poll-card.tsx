import { memo, useCallback, useId, useMemo } from 'react';
import type { InvitationRow, PollRow, SlotAnswersRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import type { SlotAnswer } from '../../domain/validation.ts';
import { Button } from '../../ui/button.tsx';
import { PRODUCT_NAME } from '../../ui/page-title.ts';
import { deadlineLine } from './poll-results.ts';
import { slotLabels, timePollView } from './time-poll-view.ts';
import { TimeSlotTable } from './time-slot-table.tsx';

export interface TimePollCardProps {
  poll: PollRow;
  /** The poll's answers rows, one per voter (only the user's own for a public poll). */
  answers: readonly SlotAnswersRow[];
  /** The user's invitation to the picked time, if any. */
  invitation: InvitationRow | undefined;
  now: Date;
  timeZone: string;
  /** The user's own name, for their column until the server names it. */
  myName: string | null;
  watermark: boolean;
}

function InvitationActions({ invitation, team }: { invitation: InvitationRow; team: boolean }) {
  const { mutate } = useUserDb();
  const answer = (accept: boolean) =>
    void mutate('invitation.answer', {
      id: invitation.id,
      accept,
      event_id: invitation.event_id ?? crypto.randomUUID(),
    }).catch((error: unknown) => console.error('Invitation answer failed', error));
  if (invitation.status === 'accepted') return <p className="text-sm text-slate-700">In your calendar</p>;
  if (invitation.status !== 'pending') return null;
  if (!team) {
    return (
      <div>
        <Button variant="secondary" onClick={() => answer(true)}>
          Add to my calendar
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-sm font-medium text-slate-800">Pending invitation</span>
      <Button onClick={() => answer(true)}>Accept</Button>
      <Button variant="secondary" onClick={() => answer(false)}>
        Decline
      </Button>
    </div>
  );
}

const report = (what: string) => (error: unknown) => console.error(what, error);

function TimePollCardView({ poll, answers, invitation, now, timeZone, myName, watermark }: TimePollCardProps) {
  const { db, mutate } = useUserDb();
  const titleId = useId();
  // The labels format 20 slots or more; an answer changes none of them.
  const labels = useMemo(() => slotLabels(poll, timeZone), [poll, timeZone]);
  const view = useMemo(
    () => timePollView(poll, answers, { userId: db.userId, timeZone, now, myName }, labels),
    [poll, answers, db.userId, timeZone, now, myName, labels],
  );
  const mineId = answers.find((row) => row.user_id === db.userId)?.id;
  const isCreator = poll.created_by_id === db.userId;
  const deadline = deadlineLine(poll, now, timeZone);
  // Kept while the poll and the user's row stay, so an answer repaints only its own slot's row.
  const onAnswer = useCallback(
    (slotId: string, answer: SlotAnswer) =>
      void mutate('poll.answer', {
        id: mineId ?? crypto.randomUUID(),
        post_id: poll.id,
        slot_id: slotId,
        answer,
      }).catch(report('Answer failed')),
    [mutate, mineId, poll.id],
  );
  const pickedEventId = poll.picked_event_id;
  const onPick = useCallback(
    (slotId: string) =>
      void mutate('poll.pick', {
        id: poll.id,
        slot_id: slotId,
        event_id: pickedEventId ?? crypto.randomUUID(),
      }).catch(report('Pick failed')),
    [mutate, pickedEventId, poll.id],
  );
  const onRemove = useCallback(
    (slotId: string) =>
      void mutate('poll.remove_slot', { id: poll.id, slot_id: slotId }).catch(report('Remove failed')),
    [mutate, poll.id],
  );

  return (
    <article
      id={`poll-${poll.id}`}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-4 rounded-2xl border border-slate-200 bg-surface p-5 shadow-sm"
    >
      <header>
        <h3 id={titleId} className="text-base font-semibold break-words text-slate-900">
          {poll.title}
        </h3>
        {poll.description && <p className="mt-1 text-sm break-words text-slate-600">{poll.description}</p>}
      </header>
      {view.picked && (
        <div className="space-y-2 rounded-lg border border-slate-200 p-3">
          <p className="text-sm font-medium text-slate-900">
            Picked time: {view.picked.label.when}
            {view.picked.label.creator ? ` (${view.picked.label.creator})` : ''}
          </p>
          {invitation && <InvitationActions invitation={invitation} team={poll.directory_id !== null} />}
        </div>
      )}
      <TimeSlotTable
        view={view}
        titleId={titleId}
        isCreator={isCreator}
        onAnswer={onAnswer}
        onPick={onPick}
        onRemove={onRemove}
      />
      <footer className="mt-auto flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
        <span>{view.open ? 'Find a time' : 'Closed'}</span>
        {deadline && <span>{deadline}</span>}
        {watermark && <span className="w-full text-slate-500">Powered by {PRODUCT_NAME}</span>}
      </footer>
    </article>
  );
}

/** Memoized as the options card is: an answer repaints its own card only. */
export const TimePollCard = memo(TimePollCardView);
