/**
 * 'Find a time' polls in the database (docs/product.md, Find a time; supabase/schemas/rules_time_polls.sql
 * and rls.sql): what a client may write to the tables directly, under row-level security, whatever the
 * app sends. A time poll's counts and slots, and its pick, are the server's; invitations are only read,
 * by the invitee; the local mailbox lists a pick's invite.ics. The answers rows and the counts are
 * find-a-time-answers.test.ts; the mutations themselves are tests/sync-server/push-find-a-time.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { StackContext } from '../../supabase/local/context.ts';
import { mailboxApp, type MailboxMessage } from '../../supabase/local/mailbox.ts';
import { as, createUser, dbKinds, outcome, sqlError } from '../support/db.ts';
import { mutation, push, uuid } from '../sync-server/sync.ts';
import { answer, creator, db, options, setupFindATime, timePoll, type Slot } from './find-a-time-helpers.ts';

describe.each(dbKinds)('find a time in the database (%s)', (kind) => {
  setupFindATime(kind);

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
