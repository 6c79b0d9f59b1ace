import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';
import type { OutboxRow } from '../rows.ts';

/** Changes waiting to be pushed (pending and failed). */
export function useOutboxCount(db: LinkboardDb): number | undefined {
  return useLiveQuery(() => db.outbox.count(), [db]);
}

/** Mutations that kept failing: shown so the user can retry or discard them (docs/sync-protocol.md). */
export function useFailedMutations(db: LinkboardDb): OutboxRow[] | undefined {
  return useLiveQuery(() => db.outbox.where('status').equals('failed').toArray(), [db]);
}
