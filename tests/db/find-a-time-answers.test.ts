/**
 * 'Find a time' answers in the database (docs/product.md, Find a time; supabase/schemas/rules_time_polls.sql
 * and rls.sql): an answers row is the voter's own, named by username or full name, never an address,
 * whatever a client writes directly. The counts follow the answers under the poll's row lock (two
 * sessions at once on PostgreSQL), and a pick closes the poll to an answer that waited for it; a
 * directory's deletion takes its polls' answers. The rest of the tables are find-a-time.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { as, createUser, dbKinds, outcome, sqlError } from '../support/db.ts';
import { actAs, openClient } from '../support/pg-clients.ts';
import { makeDirectory, mutation, push, uuid } from '../sync-server/sync.ts';
import { answer, creator, db, options, setupFindATime, timePoll } from './find-a-time-helpers.ts';

describe.each(dbKinds)('find a time in the database (%s)', (kind) => {
  setupFindATime(kind);

  describe('slot_answers', () => {
    it('is the voter’s own row: their id, the poll’s directory, their username or full name, never an address', async () => {
      const directory = await makeDirectory(db, creator, 'Team');
      const { id, slots } = await timePoll({ directory_id: directory.id });
      const named = await createUser(db, { username: `named${Date.now().toString(36)}` });
      const other = await createUser(db);
      await db.query("update public.user_profiles set username = null, full_name = 'Ada Lovelace' where id = $1", [
        other.id,
      ]);
      for (const who of [named, other]) {
        await db.query('insert into public.directory_members (directory_id, user_email) values ($1, $2)', [
          directory.id,
          who.email,
        ]);
      }
      // A client writing directly: someone else's user id and another directory are not taken.
      for (const who of [named, other]) {
        await as(db, who, (sql) =>
          sql.query(
            `insert into public.slot_answers (post_id, user_id, directory_id, voter_name, answers)
             values ($1, $2, null, $3, $4::jsonb)`,
            [id, creator.id, who.email, JSON.stringify({ [slots[0]!]: 'maybe' })],
          ),
        );
      }
      const { rows } = await db.query<{ user_id: string; directory_id: string; voter_name: string }>(
        'select user_id, directory_id, voter_name from public.slot_answers where post_id = $1 order by voter_name',
        [id],
      );
      expect(rows).toEqual([
        { user_id: other.id, directory_id: directory.id, voter_name: 'Ada Lovelace' },
        { user_id: named.id, directory_id: directory.id, voter_name: expect.stringMatching(/^named/) },
      ]);
      expect((await options(id))[0]).toMatchObject({ yes: 0, maybe: 2 });
      // Another voter's row cannot be changed; one's own can, through the rules.
      expect(
        await outcome(db, named, 'update public.slot_answers set answers = $2::jsonb where user_id = $1 returning 1', [
          other.id,
          JSON.stringify({ [slots[0]!]: 'no' }),
        ]),
      ).toBe(0);
      const bad = await sqlError(
        as(db, named, (sql) =>
          sql.query('update public.slot_answers set answers = \'{"x": "yes"}\' where user_id = $1', [named.id]),
        ),
      );
      expect(bad).toMatchObject({ message: 'This time slot no longer exists.', hint: 'not_found' });
      // Nor tombstoned on its own.
      const tomb = await sqlError(
        as(db, named, (sql) =>
          sql.query('update public.slot_answers set deleted_at = now() where user_id = $1', [named.id]),
        ),
      );
      expect(tomb).toMatchObject({ code: '42501', message: 'This record cannot be changed.' });
      // A username change reaches the grid.
      await push(db, named, mutation('profile.update', { username: `renamed${Date.now().toString(36)}` }));
      const { rows: renamed } = await db.query<{ voter_name: string }>(
        'select voter_name from public.slot_answers where user_id = $1',
        [named.id],
      );
      expect(renamed[0]!.voter_name).toMatch(/^renamed/);
      // The directory's deletion takes the answers with its polls.
      await push(db, creator, mutation('directory.delete', { id: directory.id }));
      const { rows: gone } = await db.query<{ n: number }>(
        'select count(*)::int as n from public.slot_answers where post_id = $1 and deleted_at is null',
        [id],
      );
      expect(gone[0]!.n).toBe(0);
    });

    it('counts each voter once however often the recount runs', async () => {
      const { id, slots } = await timePoll();
      await answer(await createUser(db), id, slots[0]!, 'yes');
      await answer(await createUser(db), id, slots[0]!, 'maybe');
      const before = await options(id);
      await db.query('select private.time_poll_recount($1)', [id]);
      await db.query('select private.time_poll_recount($1)', [id]);
      expect(await options(id)).toEqual(before);
      expect(before.map((slot) => [slot.yes, slot.maybe, slot.votes])).toEqual([
        [1, 1, 1],
        [0, 0, 0],
      ]);
    });

    it('counts two voters answering at once', async () => {
      const { id, slots } = await timePoll();
      const [ann, bob] = [await createUser(db), await createUser(db)];
      const args = (slot: string) =>
        JSON.stringify([mutation('poll.answer', { id: uuid(), post_id: id, slot_id: slot, answer: 'yes' })]);
      if (kind === 'postgres') {
        // Two sessions: the second waits for the poll's row lock, then recounts with the first's answer in.
        const [first, second] = [await openClient(db), await openClient(db)];
        try {
          await first.query('begin');
          await actAs(first, ann);
          await second.query('begin');
          await actAs(second, bob);
          await first.query('select public.sync_push($1::jsonb)', [args(slots[0]!)]);
          const pending = second.query('select public.sync_push($1::jsonb)', [args(slots[0]!)]);
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
          await pending;
          await second.query('commit');
        } finally {
          await first.end();
          await second.end();
        }
      } else {
        await Promise.all([answer(ann, id, slots[0]!, 'yes'), answer(bob, id, slots[0]!, 'yes')]);
      }
      expect((await options(id))[0]).toMatchObject({ yes: 2, votes: 2 });
    });
  });

  it.runIf(kind === 'postgres')('closes the poll to an answer that waited for the pick', async () => {
    const { id, slots } = await timePoll();
    const voter = await createUser(db);
    const [first, second] = [await openClient(db), await openClient(db)];
    try {
      await first.query('begin');
      await actAs(first, creator);
      await first.query('select public.sync_push($1::jsonb)', [
        JSON.stringify([mutation('poll.pick', { id, slot_id: slots[0]!, event_id: uuid() })]),
      ]);
      await second.query('begin');
      await actAs(second, voter);
      const pending = second.query<{ r: { results: { status: string; code?: string }[] } }>(
        'select public.sync_push($1::jsonb) as r',
        [JSON.stringify([mutation('poll.answer', { id: uuid(), post_id: id, slot_id: slots[0]!, answer: 'yes' })])],
      );
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
      const answered = await pending;
      await second.query('commit');
      expect(answered.rows[0]!.r.results[0]).toMatchObject({ status: 'rejected', code: 'poll_closed' });
    } finally {
      await first.end();
      await second.end();
    }
  });
});
