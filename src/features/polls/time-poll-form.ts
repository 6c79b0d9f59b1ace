/**
 * The 'Find a time' fields of the poll dialog (docs/product.md, Find a time): title, description,
 * 2 to 30 slots (a date with a time and a length, or a whole day) and an optional deadline, read in
 * the creator's zone. The schema gives react-hook-form its resolver; `timePollArgs` turns checked
 * values into the poll.create_time mutation's arguments.
 */
import * as v from 'valibot';
import type { MutationArgs } from '../../domain/mutation-contract.ts';
import { parseClock } from '../../domain/date-format.ts';
import { fromLocalInput } from '../../domain/event-times.ts';
import { messages } from '../../domain/sync-codes.ts';
import { slotsFromInput, TIME_SLOTS_MAX, TIME_SLOTS_MIN, type SlotInput } from '../../domain/time-slots.ts';
import { isDeadlineAllowed, type PollFormContext } from './poll-form.ts';

export { TIME_SLOTS_MAX, TIME_SLOTS_MIN };

/** A slot row as the form holds it: the length is the select's value, the time as typed. */
export interface SlotRow {
  date: string;
  time: string;
  minutes: string;
  allDay: boolean;
}

function slotInput(row: SlotRow): SlotInput {
  return {
    date: row.date,
    time: row.allDay ? '' : (parseClock(row.time) ?? ''),
    minutes: Number(row.minutes),
    allDay: row.allDay,
  };
}

/** Whether one row makes a slot (a date, and a time unless it is a whole day). */
export function isSlotRowValid(row: SlotRow, timeZone: string): boolean {
  return slotsFromInput([slotInput(row)], timeZone, () => 'slot') !== null;
}

export function timePollFormSchema(ctx: PollFormContext) {
  return v.object({
    title: v.pipe(v.string(), v.trim(), v.nonEmpty(messages.linkTitle)),
    description: v.pipe(v.string(), v.trim()),
    slots: v.pipe(
      v.array(v.object({ date: v.string(), time: v.string(), minutes: v.string(), allDay: v.boolean() })),
      v.check((slots) => slots.length >= TIME_SLOTS_MIN, messages.timeSlotsMin),
      v.check((slots) => slots.length <= TIME_SLOTS_MAX, messages.timeSlotsMax),
      v.check((slots) => slots.every((row) => isSlotRowValid(row, ctx.timeZone)), messages.timeSlot),
    ),
    deadline: v.pipe(
      v.string(),
      v.check((value) => isDeadlineAllowed(value, ctx), messages.pollDeadline),
    ),
  });
}

export type TimePollFormValues = v.InferOutput<ReturnType<typeof timePollFormSchema>>;

export const emptySlotRow = (): SlotRow => ({ date: '', time: '', minutes: '60', allDay: false });

export const emptyTimePollForm = (): TimePollFormValues => ({
  title: '',
  description: '',
  slots: [emptySlotRow(), emptySlotRow()],
  deadline: '',
});

/** The poll.create_time arguments of checked values: each slot its own id, earliest first. */
export function timePollArgs(
  values: TimePollFormValues,
  ctx: { timeZone: string; id: string; directoryId?: string; makeId(): string },
): MutationArgs['poll.create_time'] {
  const deadline = fromLocalInput(values.deadline, ctx.timeZone);
  const slots = slotsFromInput(values.slots.map(slotInput), ctx.timeZone, ctx.makeId) ?? [];
  return {
    id: ctx.id,
    title: values.title.trim(),
    description: values.description.trim() === '' ? null : values.description.trim(),
    deadline: deadline === 'invalid' ? null : deadline,
    time_zone: ctx.timeZone,
    slots: slots.map((slot) =>
      slot.day === null ? { id: slot.id, start: slot.start, minutes: slot.minutes } : { id: slot.id, day: slot.day },
    ),
    ...(ctx.directoryId === undefined ? {} : { directory_id: ctx.directoryId }),
  };
}
