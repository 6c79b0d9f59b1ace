/**
 * The event/task dialog's fields, checks and what a save sends (spec 2.8, 4 'Recurring series'
 * and 5 'Event dialog'). The schema gives react-hook-form its resolver and the types; `planSave`
 * turns checked values into the mutations to run, in order, so the choice between an update, a
 * detached occurrence and a replaced series is tested without a browser. The reminder goes with
 * every step that writes the item (each occurrence of a series gets it), only when set or changed.
 */
import * as v from 'valibot';
import { allDayRange, fromLocalInput, localDate, toLocalInput } from '../../domain/event-times.ts';
import { expandSeries } from '../../domain/recurrence.ts';
import { reminderFromInput } from '../../domain/reminder-choices.ts';
import { messages } from '../../domain/sync-codes.ts';
import { priorities, recurrenceRules, type Priority, type RecurrenceRule } from '../../domain/validation.ts';
import type { MutationArgs, MutationName } from '../../domain/mutation-contract.ts';
import type { EventRow } from '../../data/rows.ts';

export const repeatChoices = ['none', ...recurrenceRules] as const;
export type RepeatChoice = (typeof repeatChoices)[number];
export type EditScope = 'single' | 'all';

export const START_IN_PAST = 'The start cannot be in the past.';

export const eventFormSchema = v.pipe(
  v.object({
    title: v.pipe(v.string(), v.trim(), v.nonEmpty(messages.eventTitle)),
    description: v.pipe(v.string(), v.trim()),
    isTask: v.boolean(),
    /** Whole days: start and end are then 'YYYY-MM-DDT00:00' of the first and last day (inclusive). */
    allDay: v.boolean(),
    priority: v.picklist(priorities),
    /** 'YYYY-MM-DDTHH:mm' wall-clock values in the user's time zone ('' when empty). */
    start: v.string(),
    end: v.string(),
    repeat: v.picklist(repeatChoices),
    /** 'YYYY-MM-DD', inclusive. */
    until: v.string(),
    scope: v.picklist(['single', 'all']),
    /** Minutes before the start as the select's value; '' for None. */
    reminder: v.string(),
  }),
  v.forward(
    v.partialCheck([['isTask'], ['start']], (input) => input.isTask || input.start !== '', messages.eventStart),
    ['start'],
  ),
  v.forward(
    v.partialCheck(
      [['isTask'], ['start'], ['end']],
      (input) => input.isTask || input.start === '' || input.end === '' || input.end >= input.start,
      messages.eventRange,
    ),
    ['end'],
  ),
  v.forward(
    v.partialCheck(
      [['isTask'], ['repeat'], ['until']],
      (input) => input.isTask || input.repeat === 'none' || input.until !== '',
      messages.seriesUntil,
    ),
    ['until'],
  ),
);

export type EventFormValues = v.InferOutput<typeof eventFormSchema>;

export interface Step<N extends MutationName = MutationName> {
  name: N;
  args: MutationArgs[N];
}

export type SavePlan =
  { ok: true; steps: Step[]; kind: 'created' | 'updated' } | { ok: false; field: keyof EventFormValues; error: string };

export interface SaveContext {
  timeZone: string;
  now: Date;
  /** Makes ids (crypto.randomUUID in the app; counters in tests). */
  newId(): string;
}

function step<N extends MutationName>(name: N, args: MutationArgs[N]): Step {
  return { name, args } as Step;
}

const invalid = (field: keyof EventFormValues, error: string): SavePlan => ({ ok: false, field, error });

/** The instant of a local input, or a failed plan naming the field. */
function instant(value: string, timeZone: string): string | null | 'invalid' {
  return value === '' ? null : fromLocalInput(value, timeZone);
}

type Times = { start: string | null; end: string | null } | SavePlan;

/**
 * The instants of the form's start and end. All-day: the start of the first day and of the day
 * after the last (a task: both the start of its day), docs/architecture.md.
 */
function timesOf(values: EventFormValues, timeZone: string): Times {
  if (values.allDay) {
    if (values.start === '') return invalid('start', messages.allDayDate);
    const first = values.start.slice(0, 10);
    const range = allDayRange(first, values.isTask ? first : (values.end || values.start).slice(0, 10), timeZone);
    if (range === 'invalid') return invalid('start', messages.invalidDate);
    return { start: range.starts_at, end: values.isTask ? range.starts_at : range.ends_at };
  }
  const start = instant(values.start, timeZone);
  if (start === 'invalid') return invalid('start', messages.invalidDate);
  const end = values.isTask ? start : instant(values.end, timeZone);
  if (end === 'invalid') return invalid('end', messages.invalidDate);
  return { start, end };
}

/** Whether a new item starts before now: before the current minute, or an all-day one before today. */
function startsInPast(values: EventFormValues, now: Date, timeZone: string): boolean {
  if (values.start === '') return false;
  if (values.allDay) return values.start.slice(0, 10) < localDate(now, timeZone);
  return values.start < toLocalInput(now, timeZone);
}

/**
 * What saving `values` does to `item` (null: a new one). Tasks send end equal to start, and a
 * task without a date gets now (spec 4). A rule other than none expands into one record per
 * occurrence (a series); editing a series member updates it alone (detached) or replaces the
 * whole series with a new expanded set. all_day goes with a new all-day item and with an edit
 * that changes it.
 */
export function planSave(values: EventFormValues, item: EventRow | null, ctx: SaveContext): SavePlan {
  const { timeZone, now } = ctx;
  const times = timesOf(values, timeZone);
  if ('ok' in times) return times;
  let { start, end } = times;
  // New items start no earlier than the current minute (the inputs' minimum, spec 5).
  if (!item && startsInPast(values, now, timeZone)) return invalid('start', START_IN_PAST);
  if (values.isTask && start === null) start = end = now.toISOString();
  const description = values.description === '' ? null : values.description;
  const priority: Priority | null = values.isTask ? values.priority : null;
  const minutes = reminderFromInput(values.reminder);
  // A new row gets the chosen reminder (None is absent); an edit sends it only when it changed.
  const chosen = minutes === null ? {} : { reminder_minutes: minutes };
  const changed = item && minutes !== (item.reminder_minutes ?? null) ? { reminder_minutes: minutes } : {};
  // all_day goes with a new all-day item, and with an edit only when it changed.
  const allDayChanged = item ? Boolean(item.all_day) !== values.allDay : values.allDay;
  const allDay = allDayChanged ? { all_day: values.allDay } : {};
  const fields = { title: values.title, description, starts_at: start, ends_at: end, ...allDay };

  const repeat: RecurrenceRule | null = values.isTask || values.repeat === 'none' ? null : values.repeat;
  const inSeries = item?.series_id != null;
  if (item && inSeries && values.scope === 'single') {
    return {
      ok: true,
      kind: 'updated',
      steps: [
        step('occurrence.detach', { id: item.id, ...fields, ...changed, starts_at: start!, ends_at: end ?? start! }),
      ],
    };
  }
  if (repeat !== null && (!item || !inSeries || values.scope === 'all')) {
    const expansion = expandSeries({
      rule: repeat,
      start: start!,
      end,
      until: values.until,
      timeZone,
      allDay: values.allDay,
    });
    if (!expansion.ok) return invalid('until', expansion.error);
    const until = fromLocalInput(`${values.until}T23:59`, timeZone);
    if (until === null || until === 'invalid') return invalid('until', messages.invalidDate);
    const series = {
      series_id: ctx.newId(),
      rule: repeat,
      until,
      ...chosen,
      ...(values.allDay ? { all_day: true } : {}),
      occurrences: expansion.occurrences.map((times) => ({
        id: ctx.newId(),
        title: values.title,
        description,
        starts_at: times.starts_at,
        ends_at: times.ends_at ?? times.starts_at,
      })),
    };
    if (item && inSeries) {
      return {
        ok: true,
        kind: 'updated',
        steps: [step('series.replace', { old_series_id: item.series_id!, ...series })],
      };
    }
    // A single event given a rule becomes a series: the series first, so a refused series
    // (a Free plan, too many occurrences) deletes nothing.
    const steps = [step('series.create', series)];
    if (item) steps.push(step('event.delete', { id: item.id }));
    return { ok: true, kind: item ? 'updated' : 'created', steps };
  }
  if (item && inSeries) {
    // Scope all without a rule: the series goes, one plain event stays in its place.
    return {
      ok: true,
      kind: 'updated',
      steps: [
        step('series.delete', { series_id: item.series_id! }),
        step('event.create', { id: ctx.newId(), ...fields, ...chosen, is_task: values.isTask, priority }),
      ],
    };
  }
  if (item) {
    return {
      ok: true,
      kind: 'updated',
      steps: [step('event.update', { id: item.id, ...fields, ...changed, is_task: values.isTask, priority })],
    };
  }
  return {
    ok: true,
    kind: 'created',
    steps: [step('event.create', { id: ctx.newId(), ...fields, ...chosen, is_task: values.isTask, priority })],
  };
}
