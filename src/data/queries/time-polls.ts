/**
 * What 'Find a time' cards and the Calendar's Invitations read (docs/product.md, Find a time): the
 * answers rows of the polls shown (one per voter; the grid of a team poll, the user's own row of a
 * public one) and the user's invitations, with the pending writes laid over them so an answer
 * shows in the click's frame (docs/architecture.md, The write path).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import type { LinkboardDb } from '../db.ts';
import type { PendingWrite } from '../pending-writes.ts';
import type { InvitationRow, SlotAnswersRow } from '../rows.ts';
import { overlay, readSince, useWithPending } from './live-rows.ts';

export interface TimePollRows {
  /** Each poll's answers rows, one per voter, oldest first. */
  answers: ReadonlyMap<string, readonly SlotAnswersRow[]>;
  /** The user's invitation of each picked poll. */
  invitations: ReadonlyMap<string, InvitationRow>;
}

const oldestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export interface Read {
  answers: SlotAnswersRow[];
  invitations: InvitationRow[];
}

export async function readTimePollRows(db: LinkboardDb, pollIds: readonly string[]): Promise<Read> {
  if (pollIds.length === 0) return { answers: [], invitations: [] };
  // One equals read per poll (a getAll each), not anyOf (a cursor): the rows read this way are the
  // ones an answer's prediction finds (the middleware's known rows, pending-writes-middleware.ts).
  const [answers, invitations] = await Promise.all([
    Promise.all(pollIds.map((id) => db.slot_answers.where('post_id').equals(id).toArray())),
    db.event_invitations.where('post_id').anyOf(pollIds).toArray(),
  ]);
  return { answers: answers.flat().sort(oldestFirst), invitations };
}

/** The rows grouped by poll: one answers row per voter (the latest written, should two be held). */
export function groupTimePollRows(read: Read, userId: string): TimePollRows {
  const answers = new Map<string, SlotAnswersRow[]>();
  const seen = new Map<string, SlotAnswersRow>();
  for (const row of read.answers) {
    if (row.deleted_at) continue;
    const key = `${row.post_id}|${row.user_id}`;
    const held = seen.get(key);
    if (held && held.updated_at > row.updated_at) continue;
    seen.set(key, row);
  }
  for (const row of seen.values()) {
    const list = answers.get(row.post_id) ?? [];
    list.push(row);
    answers.set(row.post_id, list);
  }
  for (const list of answers.values()) list.sort(oldestFirst);
  const invitations = new Map<string, InvitationRow>();
  for (const row of read.invitations) {
    if (row.user_id === userId && row.post_id && !row.deleted_at) invitations.set(row.post_id, row);
  }
  return { answers, invitations };
}

/** The answers and invitations of `pollIds` (the time polls shown); undefined while loading. */
export function useTimePollRows(db: LinkboardDb, pollIds: readonly string[]): TimePollRows | undefined {
  const key = pollIds.join(',');
  const live = useLiveQuery(
    () => readSince(db, () => readTimePollRows(db, key === '' ? [] : key.split(','))),
    [db, key],
  );
  const apply = useCallback(
    (read: Read, pending: (table: 'slot_answers' | 'event_invitations') => readonly PendingWrite[]) => {
      const ids = new Set(key === '' ? [] : key.split(','));
      const answers = overlay<SlotAnswersRow>(read.answers, pending('slot_answers'), {
        belongs: (row) => ids.has(row.post_id),
        compare: oldestFirst,
      });
      const invitations = overlay<InvitationRow>(read.invitations, pending('event_invitations'), {
        belongs: (row) => row.post_id !== null && ids.has(row.post_id),
        compare: oldestFirst,
      });
      return groupTimePollRows({ answers, invitations }, db.userId);
    },
    [db, key],
  );
  return useWithPending(db, live, apply);
}

/** The user's pending invitations, the soonest first (the Calendar's Invitations). */
export function usePendingInvitations(db: LinkboardDb): InvitationRow[] | undefined {
  const live = useLiveQuery(
    () =>
      readSince(db, async () => ({
        rows: await db.event_invitations.where('status').equals('pending').toArray(),
      })),
    [db],
  );
  const apply = useCallback(
    (read: { rows: InvitationRow[] }, pending: (table: 'event_invitations') => readonly PendingWrite[]) =>
      overlay<InvitationRow>(read.rows, pending('event_invitations'), {
        belongs: (row) => row.status === 'pending' && row.user_id === db.userId && !row.deleted_at,
        compare: (a, b) => a.starts_at.localeCompare(b.starts_at),
      })
        .filter((row) => row.user_id === db.userId && !row.deleted_at)
        .sort((a, b) => a.starts_at.localeCompare(b.starts_at)),
    [db],
  );
  return useWithPending(db, live, apply);
}
