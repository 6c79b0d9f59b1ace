/** Test data builders for polls and votes, with overrides. */
import type { PollRow, VoteRow } from '../../../src/data/rows.ts';

const stamp = { created_at: '2030-01-01T00:00:00.000Z', updated_at: '2030-01-01T00:00:00.000Z' };

export function makePoll(fields: Partial<PollRow> = {}): PollRow {
  return {
    id: 'p1',
    title: 'Lunch?',
    description: null,
    options: [
      { text: 'Pizza', votes: 0 },
      { text: 'Sushi', votes: 0 },
    ],
    deadline: null,
    directory_id: null,
    created_by: 'ada@example.com',
    created_by_id: 'u1',
    is_active: true,
    ...stamp,
    ...fields,
  } as PollRow;
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
