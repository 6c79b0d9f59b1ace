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
  /** 'YYYY-MM-DD', inclusive, in the user's zone. */
  recurrence_end_date: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}

/** An http(s) URL when the text is nothing but one (spec 2.7 renders such text as a link). */
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
