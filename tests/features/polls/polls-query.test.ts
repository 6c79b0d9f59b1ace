import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openUserDb, type LinkboardDb } from '../../../src/data/db.ts';
import { readMyVotes, readPolls } from '../../../src/data/queries/polls.ts';
import { makePoll, makeVote } from './poll-builders.ts';

let db: LinkboardDb;

beforeEach(() => {
  db = openUserDb('u1', { indexedDB: new IDBFactory(), IDBKeyRange });
});
afterEach(() => db.close());

describe('the poll reads', () => {
  it('finds the public polls (no directory) newest first, and a directory’s own', async () => {
    await db.voting_posts.bulkPut([
      makePoll({ id: 'a', created_at: '2030-01-01T00:00:00Z' }),
      makePoll({ id: 'b', created_at: '2030-02-01T00:00:00Z' }),
      makePoll({ id: 't1', directory_id: 'd1' }),
      makePoll({ id: 't2', directory_id: 'd2' }),
      makePoll({ id: 'off', is_active: false }),
    ]);
    expect((await readPolls(db)).map((poll) => poll.id)).toEqual(['b', 'a']);
    expect((await readPolls(db, 'd1')).map((poll) => poll.id)).toEqual(['t1']);
    expect(await readPolls(db, 'none')).toEqual([]);
  });

  it("reads the user's votes on the given polls only", async () => {
    await db.user_votes.bulkPut([
      makeVote({ id: 'v1', post_id: 'a', option_index: 1 }),
      makeVote({ id: 'v2', post_id: 'z' }),
      makeVote({ id: 'v3', post_id: 'a', user_id: 'someone-else' }),
    ]);
    const votes = await readMyVotes(db, [makePoll({ id: 'a' }), makePoll({ id: 'b' })]);
    expect([...votes.keys()]).toEqual(['a']);
    expect(votes.get('a')?.option_index).toBe(1);
    expect(await readMyVotes(db, [])).toEqual(new Map());
  });
});
