import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, insertRow, sqlError, type Actor } from '../support/db.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;
const options = JSON.stringify([{ text: 'Red' }, { text: 'Green' }, { text: 'Blue' }]);

describe.each(dbKinds)('votes (%s)', (kind) => {
  let db: Db;
  let creator: User;

  beforeAll(async () => {
    db = await freshDb(kind);
    creator = await createUser(db, { tier: 'pro' });
  });
  afterAll(() => db.close());

  const newPoll = (extra: Record<string, unknown> = {}) =>
    insertRow<Row>(db, 'voting_posts', { title: 'Colour?', options, created_by_id: creator.id, ...extra });
  const vote = (user: User, post: string, option: number) =>
    as(db, user, (sql) =>
      sql.query('insert into public.user_votes (post_id, option_index) values ($1, $2)', [post, option]),
    );
  const counts = async (post: string) => {
    const { rows } = await db.query<{ options: { votes: number }[] }>(
      'select options from public.voting_posts where id = $1',
      [post],
    );
    return rows[0]!.options.map((option) => option.votes);
  };

  it('counts a vote on its option and takes one vote per user', async () => {
    const poll = await newPoll();
    const voter = await createUser(db);
    await vote(voter, poll.id, 2);
    expect(await counts(poll.id)).toEqual([0, 0, 1]);
    expect(await sqlError(vote(voter, poll.id, 0))).toEqual({
      code: '23505',
      message: 'You have already voted on this poll.',
      hint: 'already_voted',
    });
    expect(await counts(poll.id)).toEqual([0, 0, 1]);
  });

  it('refuses an option index outside the options', async () => {
    const poll = await newPoll();
    const voter = await createUser(db);
    for (const index of [3, -1]) {
      expect((await sqlError(vote(voter, poll.id, index))).code).toBe('22023');
    }
    expect(await counts(poll.id)).toEqual([0, 0, 0]);
  });

  it('refuses a vote on a poll past its deadline or inactive (poll_closed)', async () => {
    const voter = await createUser(db);
    const closed = { code: 'P0001', message: 'This poll is closed.', hint: 'poll_closed' };
    // A poll is created with a future deadline (a past one is refused), which then passes.
    const past = await newPoll({ deadline: new Date(Date.now() + 60_000).toISOString() });
    await db.query("update public.voting_posts set deadline = now() - interval '1 minute' where id = $1", [past.id]);
    expect(await sqlError(vote(voter, past.id, 0))).toEqual(closed);
    const inactive = await newPoll({ is_active: false });
    expect(await sqlError(vote(voter, inactive.id, 0))).toEqual(closed);
    const open = await newPoll({ deadline: new Date(Date.now() + 3_600_000).toISOString() });
    await vote(voter, open.id, 1);
    expect(await counts(open.id)).toEqual([0, 1, 0]);
  });

  it('refuses a vote on a deleted poll (not_found)', async () => {
    const poll = await newPoll();
    await db.query('update public.voting_posts set deleted_at = now() where id = $1', [poll.id]);
    const voter = await createUser(db);
    expect((await sqlError(vote(voter, poll.id, 0))).hint).toBe('not_found');
  });

  it('loses no increment under many concurrent votes', async () => {
    const poll = await newPoll();
    const voters = await Promise.all(Array.from({ length: 48 }, () => createUser(db)));
    await Promise.all(voters.map((voter, i) => vote(voter, poll.id, i % 3)));
    expect(await counts(poll.id)).toEqual([16, 16, 16]);
    const { rows } = await db.query<{ n: string }>('select count(*) as n from public.user_votes where post_id = $1', [
      poll.id,
    ]);
    expect(Number(rows[0]!.n)).toBe(48);
  });

  it('keeps one vote when the same user votes twice at once', async () => {
    const poll = await newPoll();
    const voter = await createUser(db);
    const results = await Promise.allSettled([vote(voter, poll.id, 0), vote(voter, poll.id, 1)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected');
    expect((rejected?.reason as { code?: string }).code).toBe('23505');
    expect((await counts(poll.id)).reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('lets the creator edit texts but never the counts', async () => {
    const poll = await newPoll();
    await vote(await createUser(db), poll.id, 0);
    const rename = JSON.stringify([
      { text: 'Crimson', votes: 1 },
      { text: 'Green', votes: 0 },
      { text: 'Blue', votes: 0 },
    ]);
    await as(db, creator, (sql) =>
      sql.query('update public.voting_posts set options = $2 where id = $1', [poll.id, rename]),
    );
    const inflate = JSON.stringify([
      { text: 'Crimson', votes: 100 },
      { text: 'Green', votes: 0 },
      { text: 'Blue', votes: 0 },
    ]);
    const error = await sqlError(
      as(db, creator, (sql) =>
        sql.query('update public.voting_posts set options = $2 where id = $1', [poll.id, inflate]),
      ),
    );
    expect(error).toEqual({ code: '42501', message: 'Vote counts cannot be changed.', hint: 'forbidden' });
    const { rows } = await db.query('select options from public.voting_posts where id = $1', [poll.id]);
    expect(rows[0]).toEqual({ options: JSON.parse(rename) });
  });
});
