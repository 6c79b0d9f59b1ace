import { memo } from 'react';
import type { SlotAnswer } from '../../domain/validation.ts';
import { ANSWER_LABELS, ANSWERS, type SlotView, type TimePollView } from './time-poll-view.ts';

export interface TimeSlotTableProps {
  view: TimePollView;
  /** The card's title element, naming the table. */
  titleId: string;
  isCreator: boolean;
  onAnswer(slotId: string, answer: SlotAnswer): void;
  onPick(slotId: string): void;
  onRemove(slotId: string): void;
}

const badge = 'ml-2 inline-block rounded-full px-2 py-0.5 text-xs font-medium';

function SlotHeader({ slot }: { slot: SlotView }) {
  return (
    <th scope="row" className="py-2 pr-3 text-left align-top font-medium text-slate-900">
      <span className="whitespace-nowrap">{slot.label.when}</span>
      {slot.best && (
        <span className={`${badge} bg-emerald-50 dark:bg-emerald-950/40 text-emerald-800 dark:text-emerald-200`}>
          Best
        </span>
      )}
      {slot.picked && (
        <span className={`${badge} bg-brand-50 dark:bg-brand-950/40 text-brand-700 dark:text-brand-300`}>Picked</span>
      )}
      {slot.label.creator && <span className="block text-xs font-normal text-slate-600">{slot.label.creator}</span>}
    </th>
  );
}

function AnswerButtons({
  slot,
  open,
  onAnswer,
}: {
  slot: SlotView;
  open: boolean;
  onAnswer: TimeSlotTableProps['onAnswer'];
}) {
  return (
    <div role="group" aria-label={`Your answer for ${slot.label.when}`} className="flex gap-1">
      {ANSWERS.map((answer) => {
        const pressed = slot.mine === answer;
        return (
          <button
            key={answer}
            type="button"
            aria-pressed={pressed}
            disabled={!open}
            onClick={() => onAnswer(slot.id, answer)}
            className={`rounded-md border px-2 py-1 text-xs font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed ${
              pressed
                ? 'border-brand-600 bg-brand-600 text-white'
                : 'border-slate-300 text-slate-800 hover:bg-slate-100 disabled:opacity-60'
            }`}
          >
            {ANSWER_LABELS[answer]}
          </button>
        );
      })}
    </div>
  );
}

interface SlotRowProps {
  slot: SlotView;
  voterIds: readonly string[];
  /** Each voter's answer to this slot, in the columns' order. */
  answers: readonly (SlotAnswer | undefined)[];
  open: boolean;
  isCreator: boolean;
  removable: boolean;
  onAnswer: TimeSlotTableProps['onAnswer'];
  onPick: TimeSlotTableProps['onPick'];
  onRemove: TimeSlotTableProps['onRemove'];
}

const cell = 'py-2 pr-3 align-top';

function SlotRowView({
  slot,
  voterIds,
  answers,
  open,
  isCreator,
  removable,
  onAnswer,
  onPick,
  onRemove,
}: SlotRowProps) {
  return (
    <tr className="border-b border-slate-100 last:border-0">
      <SlotHeader slot={slot} />
      <td className={cell}>
        <AnswerButtons slot={slot} open={open} onAnswer={onAnswer} />
      </td>
      <td className={`${cell} text-slate-800 tabular-nums`}>{slot.yes}</td>
      <td className={`${cell} text-slate-800 tabular-nums`}>{slot.maybe}</td>
      {voterIds.map((userId, index) => {
        const answer = answers[index];
        return (
          <td key={userId} className={`${cell} text-slate-700 whitespace-nowrap`}>
            {answer ? ANSWER_LABELS[answer] : <span aria-label="No answer">–</span>}
          </td>
        );
      })}
      {isCreator && (
        <td className={`${cell} whitespace-nowrap`}>
          {!slot.picked && (
            <button
              type="button"
              onClick={() => onPick(slot.id)}
              className="rounded-md px-2 py-1 text-xs font-medium text-brand-700 dark:text-brand-300 hover:bg-slate-100"
            >
              Pick this time
            </button>
          )}
          {removable && (
            <button
              type="button"
              onClick={() => onRemove(slot.id)}
              aria-label={`Remove ${slot.label.when}`}
              className="rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100"
            >
              Remove
            </button>
          )}
        </td>
      )}
    </tr>
  );
}

const sameList = <T,>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, i) => item === b[i]);
const sameSlot = (a: SlotView, b: SlotView) =>
  a.id === b.id &&
  a.label === b.label &&
  a.yes === b.yes &&
  a.maybe === b.maybe &&
  a.best === b.best &&
  a.picked === b.picked &&
  a.mine === b.mine;

/** A row renders again only when what it shows changed: an answer repaints its own slot's row. */
const SlotRow = memo(
  SlotRowView,
  (a, b) =>
    sameSlot(a.slot, b.slot) &&
    sameList(a.voterIds, b.voterIds) &&
    sameList(a.answers, b.answers) &&
    a.open === b.open &&
    a.isCreator === b.isCreator &&
    a.removable === b.removable &&
    a.onAnswer === b.onAnswer &&
    a.onPick === b.onPick &&
    a.onRemove === b.onRemove,
);

/**
 * The slots of a 'Find a time' poll as a table (docs/product.md, Find a time): a row per slot, headed
 * by its time; the user's three answer buttons, the Yes and If need be counts, a team poll's voters
 * (one column each, naming their answer), and the creator's 'Pick this time' and 'Remove'.
 */
export function TimeSlotTable({ view, titleId, isCreator, onAnswer, onPick, onRemove }: TimeSlotTableProps) {
  return (
    <div className="-mx-1 overflow-x-auto px-1">
      <table aria-labelledby={titleId} className="w-full border-collapse text-sm">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs whitespace-nowrap text-slate-600">
            <th scope="col" className="py-1 pr-3 font-medium">
              Time
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Your answer
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Yes
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              If need be
            </th>
            {view.voters.map((voter) => (
              <th key={voter.userId} scope="col" className="py-1 pr-3 font-medium whitespace-nowrap">
                {voter.name}
              </th>
            ))}
            {isCreator && (
              <th scope="col" className="py-1 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {view.slots.map((slot) => (
            <SlotRow
              key={slot.id}
              slot={slot}
              voterIds={view.voters.map((voter) => voter.userId)}
              answers={view.voters.map((voter) => voter.answers[slot.id])}
              open={view.open}
              isCreator={isCreator}
              removable={view.slots.length > 1}
              onAnswer={onAnswer}
              onPick={onPick}
              onRemove={onRemove}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
