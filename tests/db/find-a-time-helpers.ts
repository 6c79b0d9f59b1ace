/**
 * The shared setup of the 'Find a time' database tests (find-a-time*.test.ts): a fresh database per
 * kind with a Team creator, a time poll made through sync_push, an answer and a poll's slots as
 * stored. `db` and `creator` are live bindings, set by `setupFindATime` before each kind's tests.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { setSiteUrl } from '../../supabase/local/migrate.ts';
import { createUser, freshDb, type Actor, type DbKind } from '../support/db.ts';
import { mutation, push, uuid } from '../sync-server/sync.ts';

export type User = Required<Pick<Actor, 'id' | 'email'>>;
export interface Slot {
  id: string;
  yes: number;
  maybe: number;
  votes: number;
}

export let db: Db;
export let creator: User;

/** Registers the database of one kind (in a `describe` of `dbKinds`): made before its tests, closed after. */
export function setupFindATime(kind: DbKind): void {
  beforeAll(async () => {
    db = await freshDb(kind);
    await setSiteUrl(db, 'https://app.example');
    creator = await createUser(db, { tier: 'team' });
  });
  afterAll(() => db.close());
}

/** A time poll made through sync_push; its id and slot ids. */
export const timePoll = async (extra: Record<string, unknown> = {}) => {
  const id = uuid();
  const slots = [
    { id: uuid(), start: '2031-12-03T09:00:00Z', minutes: 60 },
    { id: uuid(), day: '2031-12-05' },
  ];
  const [result] = await push(
    db,
    creator,
    mutation('poll.create_time', { id, title: 'Sync', time_zone: 'UTC', slots, ...extra }),
  );
  expect(result!.status).toBe('applied');
  return { id, slots: slots.map((slot) => slot.id) };
};
export const answer = (who: User, post: string, slot: string, value: string) =>
  push(db, who, mutation('poll.answer', { id: uuid(), post_id: post, slot_id: slot, answer: value }));
export const options = async (id: string) =>
  (await db.query<{ options: Slot[] }>('select options from public.voting_posts where id = $1', [id])).rows[0]!.options;
