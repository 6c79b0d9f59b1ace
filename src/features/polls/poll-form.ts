/**
 * The Create Poll dialog's fields, checks and what a save sends (docs/product.md, Polls; Validation 'Poll'). The schema
 * gives react-hook-form its resolver and the types; it is made per dialog because the deadline's
 * check needs the clock and the user's time zone. `pollArgs` turns checked values into the
 * poll.create mutation's arguments.
 */
import * as v from 'valibot';
import type { MutationArgs } from '../../domain/mutation-contract.ts';
import { fromLocalInput } from '../../domain/event-times.ts';
import { messages } from '../../domain/sync-codes.ts';
import { isBlank, POLL_OPTIONS_MAX, POLL_OPTIONS_MIN } from '../../domain/validation.ts';

export { POLL_OPTIONS_MAX, POLL_OPTIONS_MIN };

/** The server's limit on an option's text (voting_posts_rules). */
export const OPTION_MAX_LENGTH = 200;
export const OPTION_TOO_LONG = 'An option can be at most 200 characters.';

export interface PollFormContext {
  timeZone: string;
  now(): Date;
}

/**
 * Options as docs/product.md counts them: 2 to 6 rows, the first two filled, and at least two filled
 * (empty rows after the first two are dropped on save).
 */
export function hasEnoughOptions(options: readonly { text: string }[]): boolean {
  if (options.length < POLL_OPTIONS_MIN || options.length > POLL_OPTIONS_MAX) return false;
  if (isBlank(options[0]?.text) || isBlank(options[1]?.text)) return false;
  return options.filter((option) => !isBlank(option.text)).length >= POLL_OPTIONS_MIN;
}

/** A datetime-local value, read in the user's zone, that is after now (or empty: no deadline). */
export function isDeadlineAllowed(value: string, ctx: PollFormContext): boolean {
  const instant = fromLocalInput(value, ctx.timeZone);
  if (instant === null) return true;
  return instant !== 'invalid' && Date.parse(instant) > ctx.now().getTime();
}

export function pollFormSchema(ctx: PollFormContext) {
  return v.object({
    title: v.pipe(v.string(), v.trim(), v.nonEmpty(messages.linkTitle)),
    description: v.pipe(v.string(), v.trim()),
    /** Objects, as react-hook-form's field arrays need them. */
    options: v.pipe(
      v.array(v.object({ text: v.pipe(v.string(), v.maxLength(OPTION_MAX_LENGTH, OPTION_TOO_LONG)) })),
      v.check((options) => hasEnoughOptions(options), messages.pollOptions),
    ),
    /** A datetime-local value in the user's zone; '' for none. */
    deadline: v.pipe(
      v.string(),
      v.check((value) => isDeadlineAllowed(value, ctx), messages.pollDeadline),
    ),
  });
}

export type PollFormValues = v.InferOutput<ReturnType<typeof pollFormSchema>>;

export const emptyPollForm = (): PollFormValues => ({
  title: '',
  description: '',
  options: [{ text: '' }, { text: '' }],
  deadline: '',
});

/** The poll.create arguments of checked values: options trimmed and empty rows dropped, the deadline an instant. */
export function pollArgs(
  values: PollFormValues,
  ctx: { timeZone: string; id: string; directoryId?: string },
): MutationArgs['poll.create'] {
  const deadline = fromLocalInput(values.deadline, ctx.timeZone);
  return {
    id: ctx.id,
    title: values.title.trim(),
    description: values.description.trim() === '' ? null : values.description.trim(),
    options: values.options.map((option) => option.text.trim()).filter((text) => text !== ''),
    deadline: deadline === 'invalid' ? null : deadline,
    ...(ctx.directoryId === undefined ? {} : { directory_id: ctx.directoryId }),
  };
}
