/**
 * Reading an event or task record as docs/product.md, Records says, whatever shape it arrives in (a row
 * of ours, an older record, an import): one record type, calendar_events.
 *
 * - start and end: `starts_at`/`ends_at`, or their aliases `start_date`/`end_date`;
 * - a task when `is_task` says so; when it is missing, a task if start equals end or there is
 *   no end (the dashboard's reading also counts a record with neither as a task);
 * - priority low, medium or high; anything else counts as medium (tasks only: events have none);
 * - completion held in `is_completed` or `completed`, whichever the record carries, and written
 *   back to the same one.
 */
export type Priority = 'low' | 'medium' | 'high';
export type CompletionField = 'is_completed' | 'completed';

/** The fields a record may carry; all optional, since older or imported records differ. */
export interface RawCalendarRecord {
  starts_at?: string | null;
  ends_at?: string | null;
  start_date?: string | null;
  end_date?: string | null;
  is_task?: boolean | null;
  priority?: string | null;
  is_completed?: boolean | null;
  completed?: boolean | null;
}

export interface CalendarRecordReading {
  start: string | null;
  end: string | null;
  isTask: boolean;
  /** Null for an event. */
  priority: Priority | null;
  completed: boolean;
  /** Where a completion toggle writes: the field the record carries (is_completed if neither). */
  completionField: CompletionField;
}

const PRIORITIES: readonly string[] = ['low', 'medium', 'high'];

const present = (value: string | null | undefined): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null;

/** Two instants written differently (offsets, precision) are the same when they parse alike. */
function sameInstant(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return !Number.isNaN(x) && x === y;
}

/**
 * Whether a record without `is_task` is a task: start equals end, or no end. `dashboard`: the
 * dashboard's reading, which also counts a record with neither start nor end as a task.
 */
export function inferIsTask(start: string | null, end: string | null, reading: 'calendar' | 'dashboard'): boolean {
  if (start === null && end === null) return reading === 'dashboard';
  if (end === null) return true;
  return start !== null && sameInstant(start, end);
}

export function readPriority(value: string | null | undefined): Priority {
  return value && PRIORITIES.includes(value) ? (value as Priority) : 'medium';
}

export function readCalendarRecord(
  record: RawCalendarRecord,
  reading: 'calendar' | 'dashboard' = 'calendar',
): CalendarRecordReading {
  const start = present(record.starts_at) ?? present(record.start_date);
  const end = present(record.ends_at) ?? present(record.end_date);
  const isTask = typeof record.is_task === 'boolean' ? record.is_task : inferIsTask(start, end, reading);
  const completionField: CompletionField =
    typeof record.is_completed === 'boolean' || typeof record.completed !== 'boolean' ? 'is_completed' : 'completed';
  return {
    start,
    end,
    isTask,
    priority: isTask ? readPriority(record.priority) : null,
    completed: record[completionField] === true,
    completionField,
  };
}

/** The change a completion toggle writes: the record's own completion field, flipped or set. */
export function completionPatch(
  record: RawCalendarRecord,
  completed: boolean,
): Partial<Record<CompletionField, boolean>> {
  return { [readCalendarRecord(record).completionField]: completed };
}
