/** Poll rules shared by the mutators and the screens (spec 3 and 4, 'Poll'). */
import { parseInstant } from './validation.ts';

/**
 * Open until its deadline, then ended; `is_active` anything but false counts as active (spec 3).
 * A deadline that does not parse never closes the poll (the server refuses to store one).
 */
export function isPollOpen(poll: { is_active?: boolean | null; deadline: string | null }, now: Date): boolean {
  if (poll.is_active === false) return false;
  const deadline = parseInstant(poll.deadline);
  return deadline === null || deadline === 'invalid' || deadline > now.getTime();
}
