/**
 * 'Find a time' polls in the database (docs/product.md, Find a time; supabase/schemas/rules_time_polls.sql
 * and rls.sql): what a client may write to the tables directly, under row-level security, whatever the
 * app sends. A time poll's counts and slots, and its pick, are the server's; an answers row is the
 * voter's own, named by username or full name, never an address; invitations are only read, by the
 * invitee. The counts follow the answers under the poll's row lock (two sessions at once on
 * PostgreSQL); a directory's deletion takes its polls' answers; the local mailbox lists a pick's
 * invite.ics. The mutations themselves are tests/sync-server/push-find-a-time.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import type { StackContext } from '../../supabase/local/context.ts';
import { mailboxApp, type MailboxMessage } from '../../supabase/local/mailbox.ts';
import { setSiteUrl } from '../../supabase/local/migrate.ts';
import { as, createUser, dbKinds, freshDb, outcome, sqlError, type Actor } from '../support/db.ts';
import { actAs, openClient } from '../support/pg-clients.ts';
import { makeDirectory, mutation, push, uuid } from '../sync-server/sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;
interface Slot {
  id: string;
  yes: number;
  maybe: number;
  votes: number;
}

describe.each(dbKinds)('find a time in the database (%s)', (kind) => {
  let db: Db;
  let creator: User;

  beforeAll(async () => {
    db = await freshDb(kind);
    await setSiteUrl(db, 'https://app.example');
    creator = await createUser(db, { tier: 'team' });
  });
  afterAll(() => db.close());

  /** A time poll made through sync_push; its id and slot ids. */
  const timePoll = async (extra: Record<string, unknown> = {}) => {
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
  const answer = (who: User, post: string, slot: string, value: string) =>
    push(db, who, mutation('poll.answer', { id: uuid(), post_id: post, slot_id: slot, answer: value }));
  const options = async (id: string) =>
    (await db.query<{ options: Slot[] }>('select options from public.voting_posts where id = $1', [id])).rows[0]!
      .options;

  describe('voting_posts of kind time', () => {
    it('keeps the counts and the slots from the client (guard), and the pick columns the server’s', async () => {
      const { id } = await timePoll();
      await answer(await createUser(db), id, (await options(id))[0]!.id, 'yes');
      const update = (set: string) =>
        sqlError(as(db, creator, (sql) => sql.query(`update public.voting_posts set ${set} where id = $1`, [id])));
      const counted = (field: string, value: number) => `options = jsonb_set(options, '{0,${field}}', '${value}')`;
      for (const [field, value] of [
        ['yes', 9],
        ['maybe', 3],
        ['votes', 9],
      ] as const) {
        expect(await update(counted(field, value)), field).toMatchObject({
          code: '42501',
          message: 'Vote counts cannot be changed.',
        });
      }
      expect(await update(`options = jsonb_set(options, '{0,start}', '"2031-12-04T09:00:00.000Z"')`)).toMatchObject({
        code: '42501',
        message: 'The time slots cannot be changed.',
      });
      expect(await update('options = options - 1')).toMatchObject({ message: 'Vote counts cannot be changed.' });
      for (const [column, value] of [
        ['picked_slot_id', "'x'"],
        ['pick_count', '7'],
        ['picked_event_id', 'gen_random_uuid()'],
        ['kind', "'choice'"],
        ['time_zone', "'Europe/Paris'"],
      ]) {
        expect(await update(`${column} = ${value}`), column).toMatchObject({
          code: '42501',
          message: `The field ${column} cannot be changed.`,
        });
      }
      expect((await options(id)).map((slot) => [slot.yes, slot.maybe])).toEqual([
        [1, 0],
        [0, 0],
      ]);
    });

    it('starts a time poll made directly with no pick and zero counts', async () => {
      const id = uuid();
      const slots = JSON.stringify([
        { id: uuid(), start: '2031-12-03T09:00:00Z', minutes: 30, yes: 4, maybe: 4, votes: 4 },
        { id: uuid(), day: '2031-12-05', yes: 2 },
      ]);
      const { rows } = await as(db, creator, (sql) =>
        sql.query<{ options: Slot[]; pick_count: number; picked_slot_id: string | null }>(
          `insert into public.voting_posts (id, title, options, kind, time_zone, created_by_id, pick_count, picked_slot_id)
           values ($1, 'Direct', $2::jsonb, 'time', 'Asia/Tokyo', $3, 5, 'x') returning options, pick_count, picked_slot_id`,
          [id, slots, creator.id],
        ),
      );
      expect(rows[0]).toMatchObject({ pick_count: 0, picked_slot_id: null });
      expect(rows[0]!.options.map((slot) => [slot.yes, slot.maybe, slot.votes])).toEqual([
        [0, 0, 0],
        [0, 0, 0],
      ]);
      // The label is in the creator's zone: 09:00 UTC is 18:00 in Tokyo.
      expect(rows[0]!.options[0]).toMatchObject({ text: '2031-12-03 18:00 (30 min)' });
    });
  });

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

  describe('event_invitations', () => {
    it('is read by its invitee only and written by no client', async () => {
      const { id, slots } = await timePoll();
      const guest = await createUser(db);
      await answer(guest, id, slots[1]!, 'yes');
      await push(db, creator, mutation('poll.pick', { id, slot_id: slots[1]!, event_id: uuid() }));
      const { rows } = await db.query<{ id: string }>('select id from public.event_invitations where post_id = $1', [
        id,
      ]);
      const invitation = rows[0]!.id;
      expect(await outcome(db, guest, 'select 1 from public.event_invitations where id = $1', [invitation])).toBe(1);
      expect(await outcome(db, creator, 'select 1 from public.event_invitations where id = $1', [invitation])).toBe(0);
      for (const who of [guest, creator]) {
        expect(
          await outcome(db, who, "update public.event_invitations set status = 'accepted' where id = $1 returning 1", [
            invitation,
          ]),
        ).toBe(0);
        expect(
          await outcome(db, who, 'delete from public.event_invitations where id = $1 returning 1', [invitation]),
        ).toBe(0);
        expect(
          await outcome(
            db,
            who,
            `insert into public.event_invitations (post_id, user_id, title, starts_at, ends_at)
             values ($1, $2, 'Forged', now(), now()) returning 1`,
            [id, who.id],
          ),
        ).toBe('error 42501');
      }
      const { rows: still } = await db.query<{ status: string }>(
        'select status from public.event_invitations where id = $1',
        [invitation],
      );
      expect(still[0]!.status).toBe('pending');
      // The whole day in the poll's zone (UTC here).
      const { rows: times } = await db.query<{ starts_at: Date; ends_at: Date; all_day: boolean }>(
        'select starts_at, ends_at, all_day from public.event_invitations where id = $1',
        [invitation],
      );
      expect(times[0]).toEqual({
        starts_at: new Date('2031-12-05T00:00:00Z'),
        ends_at: new Date('2031-12-06T00:00:00Z'),
        all_day: true,
      });
    });
  });

  it('keeps the pick’s helpers closed to client roles, and lists its invite.ics in the local mailbox', async () => {
    for (const fn of [
      'queue_pick_mail(uuid)',
      'time_poll_recount(uuid)',
      'time_poll_slots(jsonb, text, boolean)',
      'time_poll_of_creator(uuid, text)',
    ]) {
      const { rows } = await db.query<{ ok: boolean }>(
        `select has_function_privilege('authenticated', 'private.${fn}', 'execute') as ok`,
      );
      expect(rows[0]!.ok, fn).toBe(false);
    }
    const { id, slots } = await timePoll();
    await push(db, creator, mutation('poll.pick', { id, slot_id: slots[0]!, event_id: uuid() }));
    const app = mailboxApp({ db } as unknown as StackContext, 'loopback');
    const response = await app.request(`/messages.json?to=${encodeURIComponent(creator.email)}`);
    const messages = (await response.json()) as MailboxMessage[];
    const picked = messages.find((m) => m.subject === 'Time picked: Sync');
    expect(picked?.body).toContain('https://app.example/Voting');
    expect(picked?.attachments).toEqual([
      {
        filename: 'invite.ics',
        content_type: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: expect.stringContaining(`UID:${id}@linkboard\r\n`),
      },
    ]);
    expect(picked!.attachments[0]!.content).toContain('DTSTART:20311203T090000Z\r\n');
    // Other mail has none.
    expect(messages.filter((m) => !m.subject.startsWith('Time ')).every((m) => m.attachments.length === 0)).toBe(true);
  });
});
