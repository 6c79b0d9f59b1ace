import { countsAsEventThisMonth, underLimit } from '../../domain/limits.ts';
import { messages } from '../../domain/sync-codes.ts';
import { isBlank, isOneOf, isReminderChoice, parseInstant, priorities } from '../../domain/validation.ts';
import type { MutationArgs } from '../../domain/mutation-contract.ts';
import type { MutationContext } from '../mutation-context.ts';
import { refuse } from '../mutation-error.ts';
import { present, stamp, type LinkboardTx, type Mutator } from '../mutator.ts';
import type { EventRow } from '../rows.ts';
import { rowTarget } from '../targets.ts';

export async function eventOrRefuse(tx: LinkboardTx, id: string, ctx: MutationContext): Promise<EventRow> {
  const event = await tx.calendar_events.get(id);
  if (!event || event.owner_id !== ctx.userId) refuse('not_found', messages.eventNotFound);
  return event;
}

/** Checks an event's title, times, priority and reminder as they will stand. */
export function checkEventShape(shape: {
  title?: string;
  starts_at?: string | null;
  ends_at?: string | null;
  is_task: boolean;
  priority?: string | null;
  reminder_minutes?: number | null;
  all_day?: boolean;
}): void {
  if (shape.title !== undefined && isBlank(shape.title)) refuse('invalid', messages.eventTitle);
  const start = parseInstant(shape.starts_at);
  const end = parseInstant(shape.ends_at);
  if (start === 'invalid' || end === 'invalid') refuse('invalid', messages.invalidDate);
  if (!shape.is_task && start === null) refuse('invalid', messages.eventStart);
  if (start !== null && end !== null && end < start) refuse('invalid', messages.eventRange);
  if (shape.priority != null && !isOneOf(priorities, shape.priority)) refuse('invalid', messages.eventPriority);
  if (!isReminderChoice(shape.reminder_minutes)) refuse('invalid', messages.reminder);
  checkAllDay(shape.all_day, shape.is_task, start, end);
}

/** An all-day item has a date, and an all-day event ends after it starts (docs/architecture.md). */
function checkAllDay(allDay: unknown, isTask: boolean, start: number | null, end: number | null): void {
  if (allDay === undefined || allDay === false) return;
  if (allDay !== true) refuse('invalid', 'all_day must be true or false.');
  if (start === null) refuse('invalid', messages.allDayDate);
  if (!isTask && (end === null || end <= start)) refuse('invalid', messages.eventRange);
}

/** Events (not tasks) created this month in the user's time zone (design 4.3). */
export async function eventsThisMonth(tx: LinkboardTx, ctx: MutationContext): Promise<number> {
  const now = ctx.now();
  return tx.calendar_events
    .where('owner_id')
    .equals(ctx.userId)
    .filter((event) => countsAsEventThisMonth(event, now, ctx.timeZone))
    .count();
}

/** The event the args name. */
export const eventRow = (args: { id: string }) => [rowTarget('calendar_events', args.id)];

export const eventCreate: Mutator<'event.create'> = {
  tables: ['calendar_events'],
  targets: eventRow,
  async validate(tx, args, ctx) {
    const out = checkNewEvent(args);
    if (!out.is_task && !underLimit(ctx.tier, 'eventsPerMonth', await eventsThisMonth(tx, ctx))) {
      refuse('limit_reached', messages.moreEvents);
    }
    return out;
  },
  async apply(tx, args, ctx) {
    await tx.calendar_events.put(newEventRow(args, ctx));
  },
  /** The new row (a Free user's month of events is the transaction's to count). */
  predict(args, ctx) {
    return [{ table: 'calendar_events', key: args.id, row: newEventRow(checkNewEvent(args), ctx) }];
  },
};

type NewEvent = MutationArgs['event.create'];

/** A new event's or task's checks that need no read, and its args as queued. */
function checkNewEvent(args: NewEvent): NewEvent {
  if (args.title === undefined) refuse('invalid', messages.eventTitle);
  const isTask = args.is_task === true;
  checkEventShape({ ...args, is_task: isTask });
  return {
    ...args,
    title: args.title.trim(),
    description: args.description === '' ? null : (args.description ?? null),
    is_task: isTask,
    priority: isTask ? (args.priority ?? null) : null,
  };
}

function newEventRow(args: NewEvent, ctx: MutationContext): EventRow {
  return {
    id: args.id,
    title: args.title,
    description: args.description ?? null,
    starts_at: args.starts_at,
    ends_at: args.ends_at,
    owner_id: ctx.userId,
    is_task: args.is_task,
    priority: args.priority ?? null,
    is_completed: false,
    series_id: null,
    recurrence_rule: 'none',
    recurrence_end_date: null,
    reminder_minutes: args.reminder_minutes ?? null,
    all_day: args.all_day ?? false,
    ...stamp(ctx),
  };
}

export const eventUpdate: Mutator<'event.update'> = {
  tables: ['calendar_events'],
  targets: eventRow,
  async validate(tx, args, ctx) {
    const event = await eventOrRefuse(tx, args.id, ctx);
    checkEventShape({
      ...event,
      ...present(args, ['title', 'starts_at', 'ends_at', 'priority', 'is_task', 'reminder_minutes', 'all_day']),
    });
    if (event.series_id !== null && args.is_task !== undefined && args.is_task !== event.is_task) {
      refuse('invalid', messages.seriesTask);
    }
    // A task becoming an event counts towards the month's events, as the server counts it.
    if (
      event.is_task &&
      args.is_task === false &&
      !underLimit(ctx.tier, 'eventsPerMonth', await eventsThisMonth(tx, ctx))
    ) {
      refuse('limit_reached', messages.moreEvents);
    }
    return normalizedUpdate(args);
  },
  async apply(tx, args, ctx) {
    await tx.calendar_events.update(args.id, { ...updatedFields(args), updated_at: ctx.now().toISOString() });
  },
  /** The fields changed on the row shown (checks against the stored event are the transaction's). */
  predict(args, ctx) {
    const changes = { ...updatedFields(normalizedUpdate(args)), updated_at: ctx.now().toISOString() };
    return [{ table: 'calendar_events', key: args.id, update: (row) => ({ ...row, ...changes }) }];
  },
};

function normalizedUpdate(args: MutationArgs['event.update']): MutationArgs['event.update'] {
  const out = { ...args };
  if (out.title !== undefined) out.title = out.title.trim();
  if (out.description === '') out.description = null;
  // Events have no priority.
  if (out.is_task === false) out.priority = null;
  return out;
}

const updatedFields = (args: MutationArgs['event.update']) =>
  present(args, ['title', 'description', 'starts_at', 'ends_at', 'priority', 'is_task', 'reminder_minutes', 'all_day']);

export const eventDelete: Mutator<'event.delete'> = {
  tables: ['calendar_events'],
  targets: eventRow,
  async validate(tx, args, ctx) {
    await eventOrRefuse(tx, args.id, ctx);
    return args;
  },
  async apply(tx, args) {
    await tx.calendar_events.delete(args.id);
  },
  predict: (args) => [{ table: 'calendar_events', key: args.id, row: null }],
};

export const taskSetCompleted: Mutator<'task.set_completed'> = {
  tables: ['calendar_events'],
  targets: eventRow,
  async validate(tx, args, ctx) {
    await eventOrRefuse(tx, args.id, ctx);
    if (typeof args.value !== 'boolean') refuse('invalid', 'value must be true or false.');
    return args;
  },
  async apply(tx, args, ctx) {
    await tx.calendar_events.update(args.id, { is_completed: args.value, updated_at: ctx.now().toISOString() });
  },
  predict(args, ctx) {
    if (typeof args.value !== 'boolean') return null;
    const changes = { is_completed: args.value, updated_at: ctx.now().toISOString() };
    return [{ table: 'calendar_events', key: args.id, update: (row) => ({ ...row, ...changes }) }];
  },
};
