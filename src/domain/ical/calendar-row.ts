/**
 * The calendar_events row as the iCalendar export reads it. src/domain may not import src/data,
 * so this repeats the fields it needs; `RowOf<'calendar_events'>` is assignable to it (the
 * export's tests check that), and a row from an older shape only needs these fields.
 */
import type { Priority, RecurrenceRule } from '../validation.ts';

export interface CalendarRow {
  id: string;
  title: string;
  description: string | null;
  /** ISO instants, or null when the item has no time. */
  starts_at: string | null;
  ends_at: string | null;
  is_task: boolean;
  priority: Priority | null;
  is_completed: boolean;
  series_id: string | null;
  recurrence_rule: 'none' | RecurrenceRule;
  /**
   * The repeat-until day, inclusive, in the user's zone: stored as 23:59 of that day as an
   * instant ('2026-12-31T22:59:00+00:00' in Berlin); a plain 'YYYY-MM-DD' is read as the day.
   */
  recurrence_end_date: string | null;
  /** A whole-day item: starts_at is the local midnight of its first day, ends_at the one after its last. */
  all_day?: boolean;
  /** Minutes before the start to remind; null or absent for none. */
  reminder_minutes?: number | null;
  created_at?: string | null;
  updated_at?: string | null;
}

/** An http(s) URL when the text is nothing but one (docs/product.md, Calendar renders such text as a link). */
export function urlIn(text: string | null): string | null {
  const value = text?.trim() ?? '';
  if (!/^https?:\/\/\S+$/i.test(value)) return null;
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

/** The URL for an item: its title when that is a URL, else its description. */
export function urlOf(row: Pick<CalendarRow, 'title' | 'description'>): string | null {
  return urlIn(row.title) ?? urlIn(row.description);
}
