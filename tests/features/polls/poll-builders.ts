/** Test data builders for polls and votes, with overrides. */
import type { PollRow, VoteRow } from '../../../src/data/rows.ts';
import { makePoll as basePoll } from '../../data/helpers.ts';

const stamp = { created_at: '2030-01-01T00:00:00.000Z', updated_at: '2030-01-01T00:00:00.000Z' };

/** The data tests' poll, as Ada's (u1) poll 'p1'. */
export function makePoll(fields: Partial<PollRow> = {}): PollRow {
  return basePoll({ id: 'p1', created_by: 'ada@example.com', created_by_id: 'u1', ...stamp, ...fields });
}

export function makeVote(fields: Partial<VoteRow> = {}): VoteRow {
  return {
    id: 'v1',
    post_id: 'p1',
    option_index: 0,
    user_email: 'ada@example.com',
    user_id: 'u1',
    ...stamp,
    ...fields,
  } as VoteRow;
}
