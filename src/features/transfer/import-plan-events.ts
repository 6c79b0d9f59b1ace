/**
 * The calendar half of an import plan (JSON export only): single events and tasks through
 * event.create (a completed task then task.set_completed), recurring series through
 * series.create with fresh ids. An item already on the calendar (same kind, title and start) or
 * earlier in the file is a duplicate. Free: recurring series are a Pro feature and events beyond
 * the month's quota do not fit (tasks do not count, docs/product.md, Plans and limits); both are over the plan's limit.
 */
import type { MutationStep } from '../../data/run-mutator.ts';
import { FREE_LIMITS } from '../../domain/plans.ts';
import { messages } from '../../domain/sync-codes.ts';
import { eventKey, type ImportState } from './import-state.ts';
import { storableText } from '../../domain/storable-text.ts';
import type { ImportSource } from './import-source.ts';

export interface PlannedEvents {
  steps: MutationStep[];
  count: number;
  duplicates: number;
  overLimit: number;
  /** Of overLimit: events beyond the Free month's quota (the rest are recurring series). */
  overQuota: number;
  notes: string[];
}

export function planEvents(source: ImportSource, state: ImportState, newId: () => string): PlannedEvents {
  const out: PlannedEvents = { steps: [], count: 0, duplicates: 0, overLimit: 0, overQuota: 0, notes: [] };
  const free = state.tier === 'free';
  const keys = new Set(state.eventKeys);
  let eventRoom = free ? Math.max(0, FREE_LIMITS.eventsPerMonth - state.eventsThisMonth) : Infinity;

  for (const event of source.events) {
    const k = eventKey(event);
    if (keys.has(k)) {
      out.duplicates += 1;
      continue;
    }
    if (!event.is_task && eventRoom <= 0) {
      out.overLimit += 1;
      out.overQuota += 1;
      continue;
    }
    keys.add(k);
    if (!event.is_task) eventRoom -= 1;
    const id = newId();
    out.steps.push({
      name: 'event.create',
      args: {
        id,
        title: storableText(event.title),
        description: event.description === null ? null : storableText(event.description),
        starts_at: event.starts_at,
        ends_at: event.is_task ? event.starts_at : event.ends_at,
        is_task: event.is_task,
        priority: event.is_task ? event.priority : null,
        ...(event.reminder_minutes != null ? { reminder_minutes: event.reminder_minutes } : {}),
        ...(event.all_day ? { all_day: true } : {}),
      },
    });
    if (event.is_task && event.is_completed) out.steps.push({ name: 'task.set_completed', args: { id, value: true } });
    out.count += 1;
  }

  let seriesLeftOut = false;
  for (const series of source.series) {
    const first = series.occurrences[0];
    if (!first || keys.has(eventKey({ ...first, is_task: false }))) {
      out.duplicates += 1;
      continue;
    }
    if (free) {
      seriesLeftOut = true;
      out.overLimit += 1;
      continue;
    }
    for (const o of series.occurrences) keys.add(eventKey({ ...o, is_task: false }));
    out.steps.push({
      name: 'series.create',
      args: {
        series_id: newId(),
        rule: series.rule,
        until: series.until,
        ...(series.reminder_minutes != null ? { reminder_minutes: series.reminder_minutes } : {}),
        ...(series.all_day ? { all_day: true } : {}),
        occurrences: series.occurrences.map((o) => ({
          ...o,
          title: storableText(o.title),
          description: o.description === null ? null : storableText(o.description),
          id: newId(),
        })),
      },
    });
    out.count += 1;
  }
  if (seriesLeftOut) out.notes.push(messages.recurring);
  return out;
}
