/** The poll tests' fixtures: Ada's (u1) poll 'p1' and her vote 'v1' on it, with overrides. */
import type { PollRow, VoteRow } from '../../../src/data/rows.ts';
import { makePoll as basePoll, makeVote as baseVote } from '../../support/builders.ts';

const stamp = { created_at: '2030-01-01T00:00:00.000Z', updated_at: '2030-01-01T00:00:00.000Z' };

export function makePoll(fields: Partial<PollRow> = {}): PollRow {
  return basePoll({ id: 'p1', created_by: 'ada@example.com', created_by_id: 'u1', ...stamp, ...fields });
}

export function makeVote(fields: Partial<VoteRow> = {}): VoteRow {
  return baseVote({ id: 'v1', post_id: 'p1', user_email: 'ada@example.com', user_id: 'u1', ...stamp, ...fields });
}
