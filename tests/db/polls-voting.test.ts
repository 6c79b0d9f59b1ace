/**
 *  (points 1, 3 and 5, server side): an option's count comes only from user_votes; a vote
 * after the deadline is refused by the server's clock, a second vote is refused, a non-member's vote
 * on a team poll is forbidden and a team poll is read only by its directory's people; the Free poll
 * quota counts calendar months in the profile's time zone.
 *
 * Covered elsewhere and not repeated here: many concurrent votes over three options and one user's
 * two concurrent votes (votes.test.ts), a direct second vote and a closed/inactive poll refused
 * (votes.test.ts, sync-server/push-calendar-polls.test.ts), counts on insert and update never taken
 * from the client (rls-polls.test.ts, votes.test.ts), the quota kept across a time-zone move and
 * across un-deleting (poll-event-quotas.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Sql } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, insertRow, outcome, type Actor } from '../support/db.ts';
import { actAs, openClient } from '../support/pg-clients.ts';
import { mutation, pull, push, pullAll, idsOf, uuid, type MutationResult } from '../sync-server/sync.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;

const POLL_LIMIT = 'Upgrade to Pro to create more than 5 voting posts per month.';
const options = JSON.stringify([{ text: 'Yes' }, { text: 'No' }]);

/** This month's first instant in `zone`, shifted by `offset` (an interval), as SQL. */
const monthStartIn = (zone: string, offset: string) =>
  `(date_trunc('month', now() at time zone '${zone}') + interval '${offset}') at time zone '${zone}'`;

describe.each(dbKinds)('polls and voting (%s)', (kind) => {
  let db: Db;
  let owner: User;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db, { tier: 'team' });
  });
  afterAll(() => db.close());

  const publicPoll = (extra: Record<string, unknown> = {}) =>
    insertRow<Row>(db, 'voting_posts', { title: 'Lunch?', options, created_by_id: owner.id, ...extra });
  const vote = (post: string, option: number, id = uuid()) =>
    mutation('poll.vote', { id, post_id: post, option_index: option });
  const counts = async (post: string) => {
    const { rows } = await db.query<{ options: { votes: number }[]; n: number }>(
      `select p.options, (select count(*)::int from public.user_votes v where v.post_id = p.id) as n
       from public.voting_posts p where p.id = $1`,
      [post],
    );
    const row = rows[0]!;
    // The count is the votes' rows, always.
    expect(row.options.reduce((sum, option) => sum + option.votes, 0)).toBe(row.n);
    return row.options.map((option) => option.votes);
  };
  /** Runs a push as `user` in one transaction that first sets the poll's deadline from that transaction's now(). */
  const pushWithDeadline = (user: User, post: string, deadline: string, ...mutations: unknown[]) =>
    db.transaction(async (tx: Sql) => {
      await tx.query(`update public.voting_posts set deadline = now() + interval '${deadline}' where id = $1`, [post]);
      const claims = JSON.stringify({ sub: user.id, email: user.email, role: 'authenticated', aud: 'authenticated' });
      await tx.query("select set_config('request.jwt.claims', $1, true)", [claims]);
      await tx.exec('set local role authenticated');
      const { rows } = await tx.query<{ r: { results: MutationResult[] } }>('select public.sync_push($1::jsonb) as r', [
        JSON.stringify(mutations),
      ]);
      return rows[0]!.r.results;
    });

  describe('counts', () => {
    it('counts two users voting at once on the same option', async () => {
      const poll = await publicPoll();
      const [ann, bob] = [await createUser(db), await createUser(db)];
      if (kind === 'postgres') {
        // Two sessions: the second vote's count waits for the first's poll row lock, then re-reads it.
        const [first, second] = [await openClient(db), await openClient(db)];
        try {
          await first.query('begin');
          await actAs(first, ann);
          await second.query('begin');
          await actAs(second, bob);
          const push1 = await first.query('select public.sync_push($1::jsonb) as r', [
            JSON.stringify([vote(poll.id, 1)]),
          ]);
          const pending = second.query('select public.sync_push($1::jsonb) as r', [JSON.stringify([vote(poll.id, 1)])]);
          // Wait until the second session is blocked on the poll's row lock.
          let blocked = false;
          for (let i = 0; i < 250 && !blocked; i++) {
            const { rows } = await db.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock' and query like '%sync_push%'`,
            );
            blocked = rows[0]!.n > 0;
            if (!blocked) await new Promise((resolve) => setTimeout(resolve, 20));
          }
          expect(blocked).toBe(true);
          await first.query('commit');
          const push2 = await pending;
          await second.query('commit');
          expect(push1.rows[0].r.results[0].status).toBe('applied');
          expect(push2.rows[0].r.results[0].status).toBe('applied');
        } finally {
          await first.end();
          await second.end();
        }
      } else {
        // PGlite has one connection: the two pushes run one after the other.
        const results = await Promise.all([push(db, ann, vote(poll.id, 1)), push(db, bob, vote(poll.id, 1))]);
        expect(results.map(([result]) => result!.status)).toEqual(['applied', 'applied']);
      }
      expect(await counts(poll.id)).toEqual([0, 2]);
    });

    it('counts a replayed vote (the same mutation id pushed twice) once, answering the same', async () => {
      const poll = await publicPoll();
      const voter = await createUser(db);
      const once = vote(poll.id, 0);
      const [first] = await push(db, voter, once);
      expect(first).toMatchObject({ status: 'applied' });
      const [replay] = await push(db, voter, once);
      expect(replay).toEqual(first);
      // In one batch too.
      const other = await createUser(db);
      const twice = vote(poll.id, 1);
      const results = await push(db, other, twice, twice);
      expect(results.map((result) => result.status)).toEqual(['applied', 'applied']);
      expect(await counts(poll.id)).toEqual([1, 1]);
      // A new mutation for a second vote is refused.
      const [again] = await push(db, voter, vote(poll.id, 1));
      expect(again).toMatchObject({
        status: 'rejected',
        code: 'already_voted',
        message: 'You have already voted on this poll.',
      });
      expect(await counts(poll.id)).toEqual([1, 1]);
    });
  });

  describe("the deadline, on the server's clock", () => {
    it('refuses a vote one second after the deadline (poll_closed) and counts one a second before', async () => {
      const poll = await publicPoll({ deadline: new Date(Date.now() + 3_600_000).toISOString() });
      const [late, inTime] = [await createUser(db), await createUser(db)];
      // The client's idea of the time is not an argument: an old timestamp changes nothing.
      const [refused] = await pushWithDeadline(late, poll.id, '-1 second', {
        ...vote(poll.id, 0),
        args: { ...vote(poll.id, 0).args, created_at: '2000-01-01T00:00:00Z' },
      });
      expect(refused).toMatchObject({ status: 'rejected', code: 'poll_closed', message: 'This poll is closed.' });
      expect(await counts(poll.id)).toEqual([0, 0]);
      const [counted] = await pushWithDeadline(inTime, poll.id, '1 second', vote(poll.id, 0));
      expect(counted).toMatchObject({ status: 'applied' });
      expect(await counts(poll.id)).toEqual([1, 0]);
    });

    it('refuses a vote exactly at the deadline', async () => {
      const poll = await publicPoll({ deadline: new Date(Date.now() + 3_600_000).toISOString() });
      const [result] = await pushWithDeadline(await createUser(db), poll.id, '0 seconds', vote(poll.id, 1));
      expect(result).toMatchObject({ status: 'rejected', code: 'poll_closed' });
    });
  });

  describe('team polls', () => {
    let dir: Row;
    let member: User;
    let stranger: User;
    let teamPoll: Row;

    beforeAll(async () => {
      dir = await insertRow<Row>(db, 'link_directories', { name: 'Team', owner_id: owner.id });
      member = await createUser(db);
      stranger = await createUser(db, { tier: 'team' });
      await insertRow(db, 'directory_members', { directory_id: dir.id, user_email: member.email });
      teamPoll = await insertRow<Row>(db, 'voting_posts', {
        title: 'Sprint?',
        options,
        created_by_id: owner.id,
        directory_id: dir.id,
      });
    });

    const read = 'select id from public.voting_posts where id = $1';
    const forbidden = {
      status: 'rejected',
      code: 'forbidden',
      message: 'You do not have access to this poll.',
    };

    it('a non-member can neither read nor vote on it (forbidden, with a plain message)', async () => {
      expect(await outcome(db, stranger, read, [teamPoll.id])).toBe(0);
      expect(idsOf((await pullAll(db, stranger)).pages, 'voting_posts')).not.toContain(teamPoll.id);
      const [result] = await push(db, stranger, vote(teamPoll.id, 0));
      expect(result).toMatchObject(forbidden);
      // The answer carries nothing of the poll.
      expect(result!.rows.voting_posts).toEqual([]);
      expect(result!.deleted.voting_posts).toEqual([teamPoll.id]);
      expect(await counts(teamPoll.id)).toEqual([0, 0]);
      // Also straight into the table.
      const direct = await outcome(
        db,
        stranger,
        'insert into public.user_votes (post_id, option_index) values ($1, 0) returning id',
        [teamPoll.id],
      );
      expect(direct).toBe('error 42501');
    });

    it("a closed team poll answers a non-member forbidden, never how it stands; an unknown poll's vote is not_found", async () => {
      const closed = await insertRow<Row>(db, 'voting_posts', {
        title: 'Closed',
        options,
        created_by_id: owner.id,
        directory_id: dir.id,
        is_active: false,
      });
      expect((await push(db, stranger, vote(closed.id, 0)))[0]).toMatchObject(forbidden);
      expect((await push(db, stranger, vote(closed.id, 9)))[0]).toMatchObject(forbidden);
      expect((await push(db, member, vote(closed.id, 0)))[0]).toMatchObject({ code: 'poll_closed' });
      expect((await push(db, stranger, vote(uuid(), 0)))[0]).toMatchObject({ status: 'rejected', code: 'not_found' });
    });

    it('members and the owner read and vote', async () => {
      for (const user of [member, owner]) {
        expect(await outcome(db, user, read, [teamPoll.id])).toBe(1);
        expect((await push(db, user, vote(teamPoll.id, 1)))[0]).toMatchObject({ status: 'applied' });
      }
      expect(await counts(teamPoll.id)).toEqual([0, 2]);
    });

    it('a removed member loses read access and can no longer vote', async () => {
      const leaver = await createUser(db);
      const membership = await insertRow<Row>(db, 'directory_members', {
        directory_id: dir.id,
        user_email: leaver.email,
      });
      const poll = await insertRow<Row>(db, 'voting_posts', {
        title: 'Retro?',
        options,
        created_by_id: owner.id,
        directory_id: dir.id,
      });
      expect(await outcome(db, leaver, read, [poll.id])).toBe(1);
      const before = await pullAll(db, leaver);
      expect(idsOf(before.pages, 'voting_posts')).toContain(poll.id);

      const [removed] = await push(db, owner, mutation('member.remove', { id: membership.id }));
      expect(removed).toMatchObject({ status: 'applied' });

      expect(await outcome(db, leaver, read, [poll.id])).toBe(0);
      expect(await outcome(db, leaver, read, [teamPoll.id])).toBe(0);
      // A pull from the old cursor tells the device to drop the directory (and its polls with it) ...
      const after = await pull(db, leaver, before.cursor);
      expect(after.purge.directory_ids).toContain(dir.id);
      expect((after.changes.voting_posts ?? []).map((row) => row.id)).not.toContain(poll.id);
      // ... and a fresh one no longer has them.
      expect(idsOf((await pullAll(db, leaver)).pages, 'voting_posts')).not.toContain(poll.id);
      expect((await push(db, leaver, vote(poll.id, 0)))[0]).toMatchObject(forbidden);
      expect(await counts(poll.id)).toEqual([0, 0]);
    });

    it('a member who created a team poll can neither read, pull, edit nor vote on it once removed', async () => {
      const author = await createUser(db);
      const membership = await insertRow<Row>(db, 'directory_members', {
        directory_id: dir.id,
        user_email: author.email,
      });
      const id = uuid();
      const [created] = await push(
        db,
        author,
        mutation('poll.create', { id, title: 'Mine', options: ['a', 'b'], directory_id: dir.id }),
      );
      expect(created).toMatchObject({ status: 'applied' });
      await push(db, owner, mutation('member.remove', { id: membership.id }));
      expect((await push(db, author, vote(id, 0)))[0]).toMatchObject(forbidden);
      expect(await counts(id)).toEqual([0, 0]);
      // Having created it gives no access of its own: it went with the directory.
      expect(await outcome(db, author, read, [id])).toBe(0);
      expect(idsOf((await pullAll(db, author)).pages, 'voting_posts')).not.toContain(id);
      expect(
        await outcome(db, author, "update public.voting_posts set title = 'Mine!' where id = $1 returning id", [id]),
      ).toBe(0);
    });
  });

  describe('the Free quota: 5 polls per calendar month in the profile time zone', () => {
    const ZONE = 'Asia/Tokyo';

    const backdated = (user: User, n: number, at: string) =>
      db.query(
        `insert into public.voting_posts (title, options, created_by_id, created_at)
         select 'P' || g, $2, $1, ${at} from generate_series(1, $3::int) g`,
        [user.id, options, n],
      );
    const create = (user: User) =>
      push(db, user, mutation('poll.create', { id: uuid(), title: 'New', options: ['a', 'b'] }));

    it('counts 23:30 on the last day and 00:30 on the first day in different months, and refuses the 6th', async () => {
      const user = await createUser(db);
      await db.query('update public.user_profiles set time_zone = $2 where id = $1', [user.id, ZONE]);
      // Five at 23:30 on the last day of last month (Tokyo) count in last month ...
      await backdated(user, 5, monthStartIn(ZONE, '-30 minutes'));
      // ... four at 00:30 on the first of this month count in this one.
      await backdated(user, 4, monthStartIn(ZONE, '30 minutes'));
      const { rows } = await db.query<{ month: string; n: number }>(
        `select (quota_month = (date_trunc('month', now() at time zone '${ZONE}'))::date)::text as month, count(*)::int as n
         from public.voting_posts where created_by_id = $1 group by 1 order by 1`,
        [user.id],
      );
      expect(rows).toEqual([
        { month: 'false', n: 5 },
        { month: 'true', n: 4 },
      ]);

      expect((await create(user))[0]).toMatchObject({ status: 'applied' });
      const [sixth] = await create(user);
      expect(sixth).toMatchObject({ status: 'rejected', code: 'limit_reached', message: POLL_LIMIT });
      expect(sixth!.rows.voting_posts).toEqual([]);
      const { rows: total } = await db.query<{ n: number }>(
        'select count(*)::int as n from public.voting_posts where created_by_id = $1',
        [user.id],
      );
      expect(total[0]!.n).toBe(10);
    });

    it('refuses the 6th poll of the month in the same words straight into the table; Pro is unlimited', async () => {
      const user = await createUser(db);
      await backdated(user, 5, monthStartIn('UTC', '30 minutes'));
      const insert = `insert into public.voting_posts (title, options) values ('Q', '${options}') returning id`;
      const error = await as(db, user, (sql) => sql.query(insert)).then(
        () => null,
        (e: { message: string; hint?: string }) => ({ message: e.message, hint: e.hint }),
      );
      expect(error).toEqual({ message: POLL_LIMIT, hint: 'limit_reached' });
      await db.query("update public.user_profiles set subscription_tier = 'pro' where id = $1", [user.id]);
      expect((await create(user))[0]).toMatchObject({ status: 'applied' });
    });
  });
});
