/**
 * The shared setup of the 'Find a time' tests through sync_push (push-find-a-time*.test.ts): a
 * fresh database per kind with a Team creator in Europe/Berlin, and the mutations and reads the
 * tests use. `db` and `creator` are live bindings, set by `setupFindATime` before each kind's tests.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { setSiteUrl } from '../../supabase/local/migrate.ts';
import { createUser, freshDb, type Actor, type DbKind } from '../support/db.ts';
import { mutation, push, uuid } from './sync.ts';

export type User = Required<Pick<Actor, 'id' | 'email'>>;
export interface Slot {
  id: string;
  text: string;
  votes: number;
  yes: number;
  maybe: number;
  start?: string;
  minutes?: number;
  day?: string;
}

export const hourSlot = (start: string, minutes = 60) => ({ id: uuid(), start, minutes });
export const daySlot = (day: string) => ({ id: uuid(), day });

export let db: Db;
export let creator: User;

/** Registers the database of one kind (in a `describe` of `dbKinds`): made before its tests, closed after. */
export function setupFindATime(kind: DbKind): void {
  beforeAll(async () => {
    db = await freshDb(kind);
    await setSiteUrl(db, 'https://app.example/');
    creator = await createUser(db, { tier: 'team', username: `creator${Date.now().toString(36)}` });
    await db.query("update public.user_profiles set time_zone = 'Europe/Berlin' where id = $1", [creator.id]);
  });
  afterAll(() => db.close());
}

export const create = (slots: unknown[], extra: Record<string, unknown> = {}) =>
  mutation('poll.create_time', {
    id: uuid(),
    title: 'Team dinner',
    description: 'Somewhere nice',
    time_zone: 'Europe/Berlin',
    slots,
    ...extra,
  });
/** A time poll of `creator` (or `by`) with the slots given; returns its id and slots as stored. */
export const timePoll = async (slots: unknown[], extra: Record<string, unknown> = {}, by: User = creator) => {
  const made = create(slots, extra);
  const [result] = await push(db, by, made);
  expect(result, JSON.stringify(result)).toMatchObject({ status: 'applied' });
  return { id: made.args.id as string, slots: (result!.rows.voting_posts![0]!.options as Slot[]).map((s) => s.id) };
};
export const answer = (post: string, slot: string, value: 'yes' | 'maybe' | 'no', id = uuid()) =>
  mutation('poll.answer', { id, post_id: post, slot_id: slot, answer: value });
export const pick = (post: string, slot: string, eventId = uuid()) =>
  mutation('poll.pick', { id: post, slot_id: slot, event_id: eventId });
export const poll = async (id: string) => {
  const { rows } = await db.query<{
    options: Slot[];
    is_active: boolean;
    picked_slot_id: string | null;
    picked_event_id: string | null;
    pick_count: number;
  }>('select options, is_active, picked_slot_id, picked_event_id, pick_count from public.voting_posts where id = $1', [
    id,
  ]);
  return rows[0]!;
};
export const counts = async (id: string) => (await poll(id)).options.map((s) => [s.yes, s.maybe, s.votes]);
export const invitations = async (post: string) =>
  (
    await db.query<{ id: string; user_id: string; status: string; starts_at: Date; event_id: string | null }>(
      'select id, user_id, status, starts_at, event_id from public.event_invitations where post_id = $1 order by created_at, user_id',
      [post],
    )
  ).rows;
export const eventOf = async (id: string) =>
  (
    await db.query<{ owner_id: string; starts_at: Date; ends_at: Date; all_day: boolean; deleted_at: Date | null }>(
      'select owner_id, starts_at, ends_at, all_day, deleted_at from public.calendar_events where id = $1',
      [id],
    )
  ).rows[0];
export const rejected = (code: string, message: string) => ({ status: 'rejected', code, message });
