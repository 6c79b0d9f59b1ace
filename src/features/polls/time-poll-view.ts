/**
 * What a 'Find a time' card shows (docs/product.md, Find a time): each slot's label in the reader's
 * zone, its counts (the server's, with the reader's pending answers counted once), 'Best', the
 * reader's answer, and for a team poll every voter's. Pure: rows, zone and clock are arguments.
 */
import type { PollRow, SlotAnswersRow } from '../../data/rows.ts';
import { isPollOpen } from '../../domain/polls.ts';
import { bestSlot, slotCounts, slotLabel, type SlotLabel } from '../../domain/time-slots.ts';
import type { SlotAnswer } from '../../domain/validation.ts';

export const ANSWER_LABELS: Record<SlotAnswer, string> = { yes: 'Yes', maybe: 'If need be', no: 'No' };
export const ANSWERS: readonly SlotAnswer[] = ['yes', 'maybe', 'no'];

export interface SlotView {
  id: string;
  label: SlotLabel;
  yes: number;
  maybe: number;
  best: boolean;
  picked: boolean;
  mine: SlotAnswer | undefined;
}

export interface Voter {
  userId: string;
  /** Username, else full name, else 'Someone' (docs/product.md, Find a time). */
  name: string;
  answers: Readonly<Record<string, SlotAnswer>>;
}

export interface TimePollView {
  slots: SlotView[];
  /** A team poll's voters (the grid's columns); none for a public poll. */
  voters: Voter[];
  /** Open: before the deadline, active, not picked. */
  open: boolean;
  picked: SlotView | null;
}

/** Each slot's label in the reader's zone: kept by the card while the slots and zones stay (an answer changes neither). */
export function slotLabels(poll: PollRow, timeZone: string): SlotLabel[] {
  return poll.options.map((option) => slotLabel(option, timeZone, poll.time_zone));
}

export function timePollView(
  poll: PollRow,
  rows: readonly SlotAnswersRow[],
  ctx: { userId: string; timeZone: string; now: Date; myName: string | null },
  labels: readonly SlotLabel[] = slotLabels(poll, ctx.timeZone),
): TimePollView {
  const mine = rows.find((row) => row.user_id === ctx.userId);
  const counts = slotCounts(poll.options, mine);
  const best = bestSlot(poll.options, counts, poll.time_zone);
  const slots = poll.options.map((option, index): SlotView => {
    const id = option.id ?? String(index);
    return {
      id,
      label: labels[index] ?? slotLabel(option, ctx.timeZone, poll.time_zone),
      yes: counts[index]?.yes ?? 0,
      maybe: counts[index]?.maybe ?? 0,
      best: index === best,
      picked: poll.picked_slot_id === id,
      mine: mine?.answers[id],
    };
  });
  const voters = poll.directory_id
    ? rows.map((row) => ({
        userId: row.user_id,
        name: row.voter_name || (row.user_id === ctx.userId ? ctx.myName : null) || 'Someone',
        answers: row.answers,
      }))
    : [];
  return {
    slots,
    voters,
    open: isPollOpen(poll, ctx.now) && !poll.picked_slot_id,
    picked: slots.find((slot) => slot.picked) ?? null,
  };
}
