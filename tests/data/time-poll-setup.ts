/**
 * The shared setup of the 'Find a time' mutators' tests (time-polls*.test.ts): a new database with
 * the user's profile before each test (`beforeEach(freshTimePollDb)`), the Pro context, a refusal
 * check, and the arguments of a time poll and of an answer. `db` is a live binding.
 */
import { expect } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import type { MutationArgs } from '../../src/domain/mutation-contract.ts';
import { ctx, freshDb, snapshot } from './helpers.ts';
import { makeProfile, uuid } from '../support/builders.ts';

export let db: LinkboardDb;

/** Each test's start (a `beforeEach`): a new database holding the user's profile. */
export async function freshTimePollDb(): Promise<void> {
  db = freshDb();
  await db.user_profiles.put(makeProfile({ username: 'me' }));
}

export const pro = ctx({ tier: 'pro' });

export async function expectRefused(run: () => Promise<unknown>, code: string, message: string) {
  const before = await snapshot(db);
  await expect(run()).rejects.toMatchObject({ code, message });
  expect(await snapshot(db)).toEqual(before);
}

export const FUTURE = '2026-04-01T09:00:00.000Z';
export const slot = (id = uuid()) => ({ id, start: FUTURE, minutes: 60 });
export const createArgs = (over: Partial<MutationArgs['poll.create_time']> = {}): MutationArgs['poll.create_time'] => ({
  id: uuid(),
  title: ' When can we meet? ',
  time_zone: 'Europe/London',
  slots: [slot('s1'), { id: 's2', day: '2026-04-02' }],
  ...over,
});

export const answer = (post_id: string, slot_id: string, value: 'yes' | 'maybe' | 'no', id = uuid()) =>
  ({ id, post_id, slot_id, answer: value }) as const;
