/**
 * 'Find a time' polls through sync_push (docs/product.md, Find a time): poll.create_time and its
 * refusals, a time poll counted as a poll, poll.remove_slot, the pokes, and rows without an address.
 * The answers are in push-find-a-time-answers.test.ts, the pick in push-find-a-time-pick.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createUser, dbKinds } from '../support/db.ts';
import { makeDirectory, mutation, push, uuid, type Row } from './sync.ts';
import {
  answer,
  create,
  creator,
  daySlot,
  db,
  hourSlot,
  pick,
  poll,
  rejected,
  setupFindATime,
  timePoll,
  type Slot,
  type User,
} from './find-a-time-helpers.ts';

describe.each(dbKinds)('sync_push find a time (%s)', (kind) => {
  setupFindATime(kind);

  describe('poll.create_time', () => {
    it('makes a time poll: labels in the creator’s zone, counts at zero whatever the client sends', async () => {
      const made = create([{ ...hourSlot('2031-12-03T09:00:00Z'), yes: 5, maybe: 2, votes: 5 }, daySlot('2031-12-04')]);
      const [result] = await push(db, creator, made);
      expect(result!.status).toBe('applied');
      const row = result!.rows.voting_posts![0]!;
      expect(row).toMatchObject({ kind: 'time', time_zone: 'Europe/Berlin', pick_count: 0, picked_slot_id: null });
      expect(row.options).toEqual([
        {
          id: (made.args.slots as { id: string }[])[0]!.id,
          start: '2031-12-03T09:00:00.000Z',
          minutes: 60,
          text: '2031-12-03 10:00 (60 min)',
          votes: 0,
          yes: 0,
          maybe: 0,
        },
        {
          id: (made.args.slots as { id: string }[])[1]!.id,
          day: '2031-12-04',
          text: '2031-12-04',
          votes: 0,
          yes: 0,
          maybe: 0,
        },
      ]);
    });

    it('refuses too few or too many slots, a bad slot and an unknown zone', async () => {
      const slot = () => hourSlot('2031-12-03T09:00:00Z');
      const cases: [unknown[], Record<string, unknown>, string][] = [
        [[slot()], {}, 'Please provide at least 2 time slots'],
        [Array.from({ length: 31 }, slot), {}, 'A poll can have at most 30 time slots.'],
        [
          [slot(), hourSlot('2031-12-03T09:00:00Z', 10)],
          {},
          'A time slot must start at a valid time and last from 15 minutes to 24 hours.',
        ],
        [
          [slot(), hourSlot('2031-12-03T09:00:00Z', 1441)],
          {},
          'A time slot must start at a valid time and last from 15 minutes to 24 hours.',
        ],
        [
          [slot(), hourSlot('tomorrow')],
          {},
          'A time slot must start at a valid time and last from 15 minutes to 24 hours.',
        ],
        [
          [slot(), daySlot('2031-02-30')],
          {},
          'A time slot must start at a valid time and last from 15 minutes to 24 hours.',
        ],
        [
          [slot(), { id: 'not-a-uuid', day: '2031-02-03' }],
          {},
          'A time slot must start at a valid time and last from 15 minutes to 24 hours.',
        ],
        [[slot(), slot()], { time_zone: 'Mars/Olympus' }, 'Unknown time zone.'],
      ];
      for (const [slots, extra, message] of cases) {
        const [result] = await push(db, creator, create(slots, extra));
        expect(result, message).toMatchObject(rejected('invalid', message));
      }
      const same = slot();
      const [duplicate] = await push(db, creator, create([same, same]));
      expect(duplicate).toMatchObject({ status: 'rejected', code: 'invalid' });
      // 30 is the most.
      const [thirty] = await push(db, creator, create(Array.from({ length: 30 }, slot)));
      expect(thirty!.status).toBe('applied');
    });
  });

  it('counts a time poll as a poll: the Free quota, the Team plan rule for a team poll, the deadline', async () => {
    const free = await createUser(db);
    const slots = () => [hourSlot('2031-12-03T09:00:00Z'), daySlot('2031-12-05')];
    for (let i = 0; i < 4; i++)
      await push(db, free, mutation('poll.create', { id: uuid(), title: 'P', options: ['a', 'b'] }));
    expect((await push(db, free, create(slots())))[0]!.status).toBe('applied');
    const [sixth] = await push(db, free, create(slots()));
    expect(sixth).toMatchObject(
      rejected('limit_reached', 'Upgrade to Pro to create more than 5 voting posts per month.'),
    );
    const pro = await createUser(db, { tier: 'pro' });
    const room = await makeDirectory(db, pro, 'Pro room');
    const [team] = await push(db, pro, create(slots(), { directory_id: room.id }));
    expect(team).toMatchObject(rejected('limit_reached', 'Shared team voting boards are exclusive to the Team plan.'));
    const [past] = await push(db, pro, create(slots(), { deadline: '2020-01-01T00:00:00Z' }));
    expect(past).toMatchObject(rejected('invalid', 'The deadline cannot be earlier than now.'));
  });

  describe('poll.remove_slot', () => {
    it('takes a slot and its answers off, creator only, never the last one', async () => {
      const { id, slots } = await timePoll([
        hourSlot('2031-12-03T09:00:00Z'),
        hourSlot('2031-12-03T12:00:00Z'),
        daySlot('2031-12-05'),
      ]);
      const voter = await createUser(db);
      await push(db, voter, answer(id, slots[0]!, 'yes'), answer(id, slots[1]!, 'maybe'));
      const [notCreator] = await push(db, voter, mutation('poll.remove_slot', { id, slot_id: slots[0]! }));
      expect(notCreator).toMatchObject(rejected('forbidden', 'Only the creator of this poll can remove a slot.'));
      const [removed] = await push(db, creator, mutation('poll.remove_slot', { id, slot_id: slots[0]! }));
      expect(removed!.status).toBe('applied');
      expect((removed!.rows.voting_posts![0]!.options as Slot[]).map((s) => [s.id, s.yes, s.maybe])).toEqual([
        [slots[1], 0, 1],
        [slots[2], 0, 0],
      ]);
      const { rows } = await db.query<{ answers: Record<string, string> }>(
        'select answers from public.slot_answers where post_id = $1',
        [id],
      );
      expect(rows.map((row) => row.answers)).toEqual([{ [slots[1]!]: 'maybe' }]);
      const [again] = await push(db, voter, answer(id, slots[0]!, 'yes'));
      expect(again).toMatchObject(rejected('not_found', 'This time slot no longer exists.'));
      const [gone] = await push(db, creator, mutation('poll.remove_slot', { id, slot_id: slots[0]! }));
      expect(gone).toMatchObject(rejected('not_found', 'This time slot no longer exists.'));
      await push(db, creator, mutation('poll.remove_slot', { id, slot_id: slots[1]! }));
      const [last] = await push(db, creator, mutation('poll.remove_slot', { id, slot_id: slots[2]! }));
      expect(last).toMatchObject(rejected('invalid', 'A poll needs at least one time slot.'));
      expect((await poll(id)).options.map((s) => s.id)).toEqual([slots[2]]);
      // After the pick: closed.
      await push(db, creator, pick(id, slots[2]!));
      const [afterPick] = await push(db, creator, mutation('poll.remove_slot', { id, slot_id: slots[2]! }));
      expect(afterPick).toMatchObject(rejected('poll_closed', 'This poll is closed.'));
    });
  });

  it('pokes the invitees of a pick and the people of a team poll that was answered', async () => {
    const pokes = async (who: User) =>
      (
        await db.query<{ n: number }>(
          "select count(*)::int as n from realtime.messages where event = 'poke' and topic = $1",
          [`user:${who.id}`],
        )
      ).rows[0]!.n;
    const directory = await makeDirectory(db, creator, 'Poked room');
    const [member, voter, bystander] = [await createUser(db), await createUser(db), await createUser(db)];
    await db.query('insert into public.directory_members (directory_id, user_email) values ($1, $2), ($1, $3)', [
      directory.id,
      member.email,
      voter.email,
    ]);
    const { id, slots } = await timePoll([hourSlot('2031-12-03T09:00:00Z'), daySlot('2031-12-05')], {
      directory_id: directory.id,
    });
    const before = { member: await pokes(member), voter: await pokes(voter), bystander: await pokes(bystander) };
    await push(db, voter, answer(id, slots[0]!, 'yes'));
    expect(await pokes(member)).toBe(before.member + 1);
    await push(db, creator, pick(id, slots[0]!));
    // The voter, invited, is poked by the pick as well as by their own answer.
    expect(await pokes(voter)).toBeGreaterThanOrEqual(before.voter + 2);
    expect(await pokes(bystander)).toBe(before.bystander);

    // A public poll's invitee is poked by the pick (they are in no directory of the creator's).
    const publicPoll = await timePoll([hourSlot('2031-12-03T09:00:00Z'), daySlot('2031-12-05')]);
    const guest = await createUser(db);
    await push(db, guest, answer(publicPoll.id, publicPoll.slots[1]!, 'maybe'));
    const guestBefore = await pokes(guest);
    await push(db, creator, pick(publicPoll.id, publicPoll.slots[1]!));
    expect(await pokes(guest)).toBe(guestBefore + 1);
  });

  it('answers every new table’s rows without an address', async () => {
    const rows: Row[] = [];
    for (const table of ['slot_answers', 'event_invitations']) {
      const { rows: found } = await db.query<{ row: Row }>(`select to_jsonb(t) as row from public.${table} t`);
      rows.push(...found.map((r) => r.row));
    }
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toMatch(/@example\.com/i);
  });
});
