import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';
import type { PendingWrite } from '../pending-writes.ts';
import type { EventRow } from '../rows.ts';
import { overlay, readSince, useWithPending, type RowView } from './live-rows.ts';

/** By start, undated tasks last. */
const byStart = (a: EventRow, b: EventRow) => (a.starts_at ?? '\uffff').localeCompare(b.starts_at ?? '\uffff');
const everyEvent: RowView<EventRow> = { belongs: () => true, compare: byStart };
const withPending = (read: { rows: EventRow[] }, pending: (table: 'calendar_events') => readonly PendingWrite[]) =>
  overlay(read.rows, pending('calendar_events'), everyEvent);

/** The user's events and tasks, by start (undated tasks last); a saved series shows before its commit. */
export function useEvents(db: LinkboardDb): EventRow[] | undefined {
  const live = useLiveQuery(
    () => readSince(db, async () => ({ rows: (await db.calendar_events.toArray()).sort(byStart) })),
    [db],
  );
  return useWithPending(db, live, withPending);
}
