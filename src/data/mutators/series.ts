import { messages } from '../../domain/sync-codes.ts';
import { SERIES_MAX, isOneOf, isReminderChoice, parseInstant, recurrenceRules } from '../../domain/validation.ts';
import type { MutationArgs, Occurrence } from '../../domain/mutation-contract.ts';
import type { MutationContext } from '../mutation-context.ts';
import { refuse } from '../mutation-error.ts';
import { present, stamp, type LinkboardTx, type Mutator } from '../mutator.ts';
import type { EventRow } from '../rows.ts';
import { groupTarget, rowTarget, type Target } from '../targets.ts';
import { checkEventShape, eventOrRefuse, eventRow } from './events.ts';

type SeriesArgs = MutationArgs['series.create'];

function checkSeries<T extends SeriesArgs>(args: T, ctx: MutationContext): T {
  if (ctx.tier === 'free') refuse('limit_reached', messages.recurring);
  if (!isOneOf(recurrenceRules, args.rule)) refuse('invalid', messages.seriesRule);
  if (!isReminderChoice(args.reminder_minutes)) refuse('invalid', messages.reminder);
  if (args.all_day !== undefined && typeof args.all_day !== 'boolean')
    refuse('invalid', 'all_day must be true or false.');
  const until = parseInstant(args.until);
  if (until === null) refuse('invalid', messages.seriesUntil);
  if (until === 'invalid') refuse('invalid', messages.invalidDate);
  if (!Array.isArray(args.occurrences) || args.occurrences.length < 1 || args.occurrences.length > SERIES_MAX) {
    refuse('invalid', messages.seriesSize);
  }
  const occurrences = args.occurrences.map((occurrence): Occurrence => {
    checkEventShape({ ...occurrence, is_task: false, all_day: args.all_day });
    return {
      ...occurrence,
      title: occurrence.title.trim(),
      description: occurrence.description === '' ? null : (occurrence.description ?? null),
    };
  });
  return { ...args, occurrences };
}

async function putSeries(tx: LinkboardTx, args: SeriesArgs, ctx: MutationContext): Promise<void> {
  await tx.calendar_events.bulkPut(seriesRows(args, ctx));
}

/** The rows of a series' occurrences. */
function seriesRows(args: SeriesArgs, ctx: MutationContext): EventRow[] {
  const times = stamp(ctx);
  return args.occurrences.map((occurrence) => ({
    ...occurrence,
    owner_id: ctx.userId,
    is_task: false,
    priority: null,
    is_completed: false,
    series_id: args.series_id,
    recurrence_rule: args.rule,
    recurrence_end_date: args.until,
    // Every occurrence reminds like a single event.
    reminder_minutes: args.reminder_minutes ?? null,
    all_day: args.all_day ?? false,
    ...times,
  }));
}

/** The occurrences the args carry. */
const occurrenceRows = (args: SeriesArgs): Target[] =>
  args.occurrences.map((occurrence) => rowTarget('calendar_events', occurrence.id));
const seriesGroup = (seriesId: string) => groupTarget('calendar_events', 'series_id', seriesId);

async function dropSeries(tx: LinkboardTx, seriesId: string): Promise<void> {
  await tx.calendar_events.where('series_id').equals(seriesId).delete();
}

export const seriesCreate: Mutator<'series.create'> = {
  tables: ['calendar_events'],
  targets: occurrenceRows,
  async validate(_tx, args, ctx) {
    return checkSeries(args, ctx);
  },
  async apply(tx, args, ctx) {
    await putSeries(tx, args, ctx);
  },
  /** Every occurrence at once: a series needs no read to be checked. */
  predict(args, ctx) {
    return seriesRows(checkSeries(args, ctx), ctx).map((row) => ({ table: 'calendar_events', key: row.id, row }));
  },
};

export const seriesReplace: Mutator<'series.replace'> = {
  tables: ['calendar_events'],
  targets: (args) => [seriesGroup(args.old_series_id), ...occurrenceRows(args)],
  async validate(_tx, args, ctx) {
    return checkSeries(args, ctx);
  },
  async apply(tx, args, ctx) {
    await dropSeries(tx, args.old_series_id);
    await putSeries(tx, args, ctx);
  },
};

export const seriesDelete: Mutator<'series.delete'> = {
  tables: ['calendar_events'],
  targets: (args) => [seriesGroup(args.series_id)],
  async validate(_tx, args) {
    if (typeof args.series_id !== 'string' || args.series_id === '') refuse('invalid', 'series_id is required.');
    return args;
  },
  async apply(tx, args) {
    await dropSeries(tx, args.series_id);
  },
};

export const occurrenceDetach: Mutator<'occurrence.detach'> = {
  tables: ['calendar_events'],
  targets: eventRow,
  async validate(tx, args, ctx) {
    const event = await eventOrRefuse(tx, args.id, ctx);
    checkEventShape({
      ...event,
      ...present(args, ['title', 'starts_at', 'ends_at', 'reminder_minutes', 'all_day']),
    });
    const out = { ...args };
    if (out.title !== undefined) out.title = out.title.trim();
    if (out.description === '') out.description = null;
    return out;
  },
  async apply(tx, args, ctx) {
    const changes = present(args, ['title', 'description', 'starts_at', 'ends_at', 'reminder_minutes', 'all_day']);
    await tx.calendar_events.update(args.id, {
      ...changes,
      series_id: null,
      recurrence_rule: 'none',
      recurrence_end_date: null,
      updated_at: ctx.now().toISOString(),
    });
  },
};
