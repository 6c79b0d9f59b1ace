import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';
import type { EventRow } from '../rows.ts';

/** The user's events and tasks, by start (undated tasks last). */
export function useEvents(db: LinkboardDb): EventRow[] | undefined {
  return useLiveQuery(
    () =>
      db.calendar_events
        .toArray()
        .then((rows) => rows.sort((a, b) => (a.starts_at ?? '\uffff').localeCompare(b.starts_at ?? '\uffff'))),
    [db],
  );
}
