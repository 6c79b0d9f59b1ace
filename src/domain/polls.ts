/** Poll rules shared by the mutators and the screens (docs/product.md, Records; Calendar, 'Poll'). */
import { parseInstant } from './validation.ts';

/**
 * Open until its deadline, then ended; `is_active` anything but false counts as active (docs/product.md, Records).
 * A deadline that does not parse never closes the poll (the server refuses to store one).
 */
export function isPollOpen(poll: { is_active?: boolean | null; deadline: string | null }, now: Date): boolean {
  if (poll.is_active === false) return false;
  const deadline = parseInstant(poll.deadline);
  return deadline === null || deadline === 'invalid' || deadline > now.getTime();
}

interface BoardPoll {
  id: string;
  created_at: string;
  deadline: string | null;
  is_active?: boolean | null;
}

/** Newest first; equal creation times by id, highest first (the query's tie-break). */
function newestFirst(a: BoardPoll, b: BoardPoll): number {
  return b.created_at.localeCompare(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** A deadline as epoch ms; none (or one that does not parse: it never closes) sorts after every date. */
function deadlineOf(poll: BoardPoll): number {
  const time = parseInstant(poll.deadline);
  return typeof time === 'number' ? time : Infinity;
}

/**
 * The order of a poll board at `now`: the open polls first, the soonest deadline first (those
 * without one after), then the newest; the ended ones after them, the most recently ended first,
 * then the newest. Open and ended are returned apart, for the board to head the ended ones.
 */
export function boardOrder<P extends BoardPoll>(polls: readonly P[], now: Date): { open: P[]; ended: P[] } {
  const open: P[] = [];
  const ended: P[] = [];
  for (const poll of polls) (isPollOpen(poll, now) ? open : ended).push(poll);
  open.sort((a, b) => deadlineOf(a) - deadlineOf(b) || newestFirst(a, b));
  ended.sort((a, b) => deadlineOf(b) - deadlineOf(a) || newestFirst(a, b));
  return { open, ended };
}
