/**
 * 'Find a time' polls through sync_push (docs/product.md, Find a time): poll.create_time,
 * poll.answer, poll.remove_slot, poll.pick and invitation.answer, each applied and each refusal with
 * its message and code; the counts from the answers; one row per voter however often or from
 * however many devices an answer comes; the pick's event, invitations and mail (with its calendar);
 * accepting, declining and picking again; the pick's throttle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { setSiteUrl } from '../../supabase/local/migrate.ts';
import { as, createUser, dbKinds, freshDb, type Actor } from '../support/db.ts';
import { changesOf, count, makeDirectory, mutation, pullAll, push, uuid, type Row } from './sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;
interface Slot {
  id: string;
  text: string;
  votes: number;
  yes: number;
  maybe: number;
  start?: string;
  minutes?: number;
  day?: string;
}

const hourSlot = (start: string, minutes = 60) => ({ id: uuid(), start, minutes });
const daySlot = (day: string) => ({ id: uuid(), day });

describe.each(dbKinds)('sync_push find a time (%s)', (kind) => {
  let db: Db;
  let creator: User;

  beforeAll(async () => {
    db = await freshDb(kind);
    await setSiteUrl(db, 'https://app.example/');
    creator = await createUser(db, { tier: 'team', username: `creator${Date.now().toString(36)}` });
    await db.query("update public.user_profiles set time_zone = 'Europe/Berlin' where id = $1", [creator.id]);
  });
  afterAll(() => db.close());

  const create = (slots: unknown[], extra: Record<string, unknown> = {}) =>
    mutation('poll.create_time', {
      id: uuid(),
      title: 'Team dinner',
      description: 'Somewhere nice',
      time_zone: 'Europe/Berlin',
      slots,
      ...extra,
    });
  /** A time poll of `creator` (or `by`) with the slots given; returns its id and slots as stored. */
  const timePoll = async (slots: unknown[], extra: Record<string, unknown> = {}, by: User = creator) => {
    const made = create(slots, extra);
    const [result] = await push(db, by, made);
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'applied' });
    return { id: made.args.id as string, slots: (result!.rows.voting_posts![0]!.options as Slot[]).map((s) => s.id) };
  };
  const answer = (post: string, slot: string, value: 'yes' | 'maybe' | 'no', id = uuid()) =>
    mutation('poll.answer', { id, post_id: post, slot_id: slot, answer: value });
  const pick = (post: string, slot: string, eventId = uuid()) =>
    mutation('poll.pick', { id: post, slot_id: slot, event_id: eventId });
  const poll = async (id: string) => {
    const { rows } = await db.query<{
      options: Slot[];
      is_active: boolean;
      picked_slot_id: string | null;
      picked_event_id: string | null;
      pick_count: number;
    }>(
      'select options, is_active, picked_slot_id, picked_event_id, pick_count from public.voting_posts where id = $1',
      [id],
    );
    return rows[0]!;
  };
  const counts = async (id: string) => (await poll(id)).options.map((s) => [s.yes, s.maybe, s.votes]);
  const invitations = async (post: string) =>
    (
      await db.query<{ id: string; user_id: string; status: string; starts_at: Date; event_id: string | null }>(
        'select id, user_id, status, starts_at, event_id from public.event_invitations where post_id = $1 order by created_at, user_id',
        [post],
      )
    ).rows;
  const eventOf = async (id: string) =>
    (
      await db.query<{ owner_id: string; starts_at: Date; ends_at: Date; all_day: boolean; deleted_at: Date | null }>(
        'select owner_id, starts_at, ends_at, all_day, deleted_at from public.calendar_events where id = $1',
        [id],
      )
    ).rows[0];
  const rejected = (code: string, message: string) => ({ status: 'rejected', code, message });

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

  describe('poll.answer', () => {
    it('counts Yes and If need be per slot; a replayed answer counts once', async () => {
      const { id, slots } = await timePoll([hourSlot('2031-12-03T09:00:00Z'), hourSlot('2031-12-03T12:00:00Z')]);
      const [ann, bob] = [await createUser(db), await createUser(db)];
      const once = answer(id, slots[0]!, 'yes');
      for (let i = 0; i < 3; i++) expect((await push(db, ann, once))[0]!.status).toBe('applied');
      // The same answer as new mutations, too.
      expect((await push(db, ann, answer(id, slots[0]!, 'yes'), answer(id, slots[0]!, 'yes')))[1]!.status).toBe(
        'applied',
      );
      await push(db, bob, answer(id, slots[0]!, 'maybe'), answer(id, slots[1]!, 'yes'));
      expect(await counts(id)).toEqual([
        [1, 1, 1],
        [1, 0, 1],
      ]);
      // Changing an answer moves the count.
      const [changed] = await push(db, ann, answer(id, slots[0]!, 'no'));
      expect(changed!.rows.voting_posts![0]!.options).toMatchObject([{ yes: 0, maybe: 1 }, { yes: 1 }]);
      expect(await count(db, 'slot_answers', 'post_id = $1', [id])).toBe(2);
    });

    it('keeps one row per voter: two devices’ answers with different row ids end in one row with both slots', async () => {
      const { id, slots } = await timePoll([hourSlot('2031-12-03T09:00:00Z'), hourSlot('2031-12-03T12:00:00Z')]);
      const voter = await createUser(db, { username: `voter${Date.now().toString(36)}` });
      const [phone, laptop] = [uuid(), uuid()];
      const [first] = await push(db, voter, answer(id, slots[0]!, 'yes', phone));
      expect(first!.rows.slot_answers).toMatchObject([{ id: phone, answers: { [slots[0]!]: 'yes' } }]);
      const [second] = await push(db, voter, answer(id, slots[1]!, 'maybe', laptop));
      expect(second!.status).toBe('applied');
      // The answer names the row that stays (the first id) and drops the other device's id.
      expect(second!.rows.slot_answers).toEqual([
        expect.objectContaining({ id: phone, answers: { [slots[0]!]: 'yes', [slots[1]!]: 'maybe' } }),
      ]);
      expect(second!.deleted.slot_answers).toEqual([laptop]);
      const { rows } = await db.query<{ id: string; voter_name: string; directory_id: string | null }>(
        'select id, voter_name, directory_id from public.slot_answers where post_id = $1',
        [id],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id).toBe(phone);
      expect(rows[0]!.directory_id).toBeNull();
      expect(rows[0]!.voter_name).toMatch(/^voter/);
      expect(await counts(id)).toEqual([
        [1, 0, 1],
        [0, 1, 0],
      ]);
    });

    it('refuses a deleted poll, a closed one, a removed slot, a bad answer and the wrong kind of poll', async () => {
      const voter = await createUser(db);
      const slots = [hourSlot('2031-12-03T09:00:00Z'), hourSlot('2031-12-03T12:00:00Z')];
      const { id } = await timePoll(slots);
      const [missing] = await push(db, voter, answer(uuid(), slots[0]!.id, 'yes'));
      expect(missing).toMatchObject(rejected('not_found', 'Poll not found.'));
      const [noSlot] = await push(db, voter, answer(id, uuid(), 'yes'));
      expect(noSlot).toMatchObject(rejected('not_found', 'This time slot no longer exists.'));
      const [bad] = await push(db, voter, {
        ...answer(id, slots[0]!.id, 'yes'),
        args: { ...answer(id, slots[0]!.id, 'yes').args, answer: 'perhaps' },
      });
      expect(bad).toMatchObject({ status: 'rejected', code: 'invalid' });

      await db.query("update public.voting_posts set deadline = now() - interval '1 second' where id = $1", [id]);
      const [late] = await push(db, voter, answer(id, slots[0]!.id, 'yes'));
      expect(late).toMatchObject(rejected('poll_closed', 'This poll is closed.'));
      await db.query('update public.voting_posts set deadline = null, is_active = false where id = $1', [id]);
      const [inactive] = await push(db, voter, answer(id, slots[0]!.id, 'yes'));
      expect(inactive).toMatchObject(rejected('poll_closed', 'This poll is closed.'));
      await db.query('update public.voting_posts set deleted_at = now() where id = $1', [id]);
      const [deleted] = await push(db, voter, answer(id, slots[0]!.id, 'yes'));
      expect(deleted).toMatchObject(rejected('not_found', 'Poll not found.'));
      expect(await count(db, 'slot_answers', 'post_id = $1', [id])).toBe(0);

      // A vote on a time poll, and a slot answer on a choice poll.
      const { id: open, slots: openSlots } = await timePoll([hourSlot('2031-12-03T09:00:00Z'), daySlot('2031-12-05')]);
      const [vote] = await push(db, voter, mutation('poll.vote', { id: uuid(), post_id: open, option_index: 0 }));
      expect(vote).toMatchObject(rejected('invalid', 'This poll is answered per time slot.'));
      const choice = mutation('poll.create', { id: uuid(), title: 'Lunch?', options: ['Yes', 'No'] });
      await push(db, creator, choice);
      const [slotOnChoice] = await push(db, voter, answer(choice.args.id as string, openSlots[0]!, 'yes'));
      expect(slotOnChoice).toMatchObject(rejected('invalid', 'This poll has no time slots.'));
    });

    it('takes a team poll’s answers from its people only, and shows them the grid', async () => {
      const directory = await makeDirectory(db, creator, 'Team room');
      const member = await createUser(db);
      const stranger = await createUser(db);
      await db.query('insert into public.directory_members (directory_id, user_email, role) values ($1, $2, $3)', [
        directory.id,
        member.email,
        'viewer',
      ]);
      const { id, slots } = await timePoll([hourSlot('2031-12-03T09:00:00Z'), daySlot('2031-12-05')], {
        directory_id: directory.id,
      });
      const [outsider] = await push(db, stranger, answer(id, slots[0]!, 'yes'));
      expect(outsider).toMatchObject(rejected('forbidden', 'You do not have access to this poll.'));
      expect((await push(db, member, answer(id, slots[0]!, 'yes')))[0]!.status).toBe('applied');
      expect((await push(db, creator, answer(id, slots[1]!, 'maybe')))[0]!.status).toBe('applied');
      // The directory's people see every answer row (the grid); the stranger none.
      for (const who of [creator, member]) {
        const pulled = changesOf((await pullAll(db, who)).pages).slot_answers ?? [];
        expect(pulled.filter((row) => row.post_id === id)).toHaveLength(2);
        expect(pulled.every((row) => row.directory_id === directory.id || row.post_id !== id)).toBe(true);
      }
      const strangerPull = changesOf((await pullAll(db, stranger)).pages).slot_answers ?? [];
      expect(strangerPull.filter((row) => row.post_id === id)).toEqual([]);
      const direct = await as(db, stranger, (sql) =>
        sql.query('select id from public.slot_answers where post_id = $1', [id]),
      );
      expect(direct.rows).toEqual([]);
    });
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

  describe('poll.pick and invitation.answer', () => {
    it('makes the creator’s event and invites the Yes and If need be voters only; mails them with the event', async () => {
      const { id, slots } = await timePoll([hourSlot('2031-12-03T09:00:00Z', 90), hourSlot('2031-12-03T12:00:00Z')]);
      const [yes, maybe, no, other] = [
        await createUser(db),
        await createUser(db),
        await createUser(db),
        await createUser(db),
      ];
      await push(db, yes, answer(id, slots[0]!, 'yes'));
      await push(db, maybe, answer(id, slots[0]!, 'maybe'));
      await push(db, no, answer(id, slots[0]!, 'no'), answer(id, slots[1]!, 'yes'));
      await push(db, other, answer(id, slots[1]!, 'yes'));
      await push(db, creator, answer(id, slots[0]!, 'yes'));

      const [notCreator] = await push(db, yes, pick(id, slots[0]!));
      expect(notCreator).toMatchObject(rejected('forbidden', 'Only the creator of this poll can pick the time.'));
      const [noSlot] = await push(db, creator, pick(id, uuid()));
      expect(noSlot).toMatchObject(rejected('not_found', 'This time slot no longer exists.'));
      const [missing] = await push(db, creator, pick(uuid(), slots[0]!));
      expect(missing).toMatchObject(rejected('not_found', 'Poll not found.'));

      const eventId = uuid();
      const [picked] = await push(db, creator, pick(id, slots[0]!, eventId));
      expect(picked!.status).toBe('applied');
      expect(picked!.rows.voting_posts![0]).toMatchObject({
        picked_slot_id: slots[0],
        picked_event_id: eventId,
        pick_count: 1,
        is_active: true,
      });
      expect(picked!.rows.calendar_events).toEqual([
        expect.objectContaining({ id: eventId, title: 'Team dinner', owner_id: creator.id, all_day: false }),
      ]);
      const event = await eventOf(eventId);
      expect(event!.starts_at.toISOString()).toBe('2031-12-03T09:00:00.000Z');
      expect(event!.ends_at.toISOString()).toBe('2031-12-03T10:30:00.000Z');
      const invited = await invitations(id);
      expect(invited.map((i) => i.user_id).sort()).toEqual([yes.id, maybe.id].sort());
      expect(
        invited.every((i) => i.status === 'pending' && i.starts_at.toISOString() === event!.starts_at.toISOString()),
      ).toBe(true);
      // The poll is closed for answers.
      const [closed] = await push(db, other, answer(id, slots[0]!, 'yes'));
      expect(closed).toMatchObject(rejected('poll_closed', 'This poll is closed.'));

      // The mail: the creator and both invitees, each with the event.
      const { rows: mail } = await db.query<{ to_address: string; subject: string; calendar: Record<string, unknown> }>(
        "select to_address, subject, calendar from public.outgoing_mail where subject like 'Time %' and calendar ->> 'uid' = $1",
        [`${id}@linkboard`],
      );
      expect(mail.map((m) => m.to_address).sort()).toEqual([creator.email, yes.email, maybe.email].sort());
      for (const m of mail) {
        expect(m.subject).toBe('Time picked: Team dinner');
        expect(m.calendar).toEqual({
          uid: `${id}@linkboard`,
          sequence: 1,
          title: 'Team dinner',
          description: 'Somewhere nice',
          starts_at: '2031-12-03T09:00:00Z',
          ends_at: '2031-12-03T10:30:00Z',
          all_day: false,
          time_zone: 'Europe/Berlin',
          url: 'https://app.example/Voting',
          method: 'PUBLISH',
        });
      }
      // The invitees see their own invitation only.
      const seen = await as(db, yes, (sql) =>
        sql.query<{ user_id: string }>('select user_id from public.event_invitations'),
      );
      expect(seen.rows.map((row) => row.user_id)).toEqual([yes.id]);
      const pulled = changesOf((await pullAll(db, maybe)).pages).event_invitations ?? [];
      expect(pulled.map((row) => row.user_id)).toEqual([maybe.id]);
    });

    it('accepts once (a replay or the other device makes no second event), declines, and refuses what is gone', async () => {
      const { id, slots } = await timePoll([daySlot('2031-12-04'), hourSlot('2031-12-03T12:00:00Z')]);
      const guest = await createUser(db);
      await push(db, guest, answer(id, slots[0]!, 'yes'));
      await push(db, creator, pick(id, slots[0]!));
      const [invitation] = await invitations(id);
      const eventId = uuid();
      const accept = mutation('invitation.answer', { id: invitation!.id, accept: true, event_id: eventId });
      const [accepted] = await push(db, guest, accept);
      expect(accepted!.status).toBe('applied');
      expect(accepted!.rows.event_invitations).toMatchObject([{ status: 'accepted', event_id: eventId }]);
      expect(accepted!.rows.calendar_events).toMatchObject([{ id: eventId, owner_id: guest.id, all_day: true }]);
      // A whole day in the poll's zone: Berlin's midnight to the next.
      const event = await eventOf(eventId);
      expect([event!.starts_at.toISOString(), event!.ends_at.toISOString()]).toEqual([
        '2031-12-03T23:00:00.000Z',
        '2031-12-04T23:00:00.000Z',
      ]);
      expect((await push(db, guest, accept))[0]).toEqual(accepted);
      const [otherDevice] = await push(
        db,
        guest,
        mutation('invitation.answer', { id: invitation!.id, accept: true, event_id: uuid() }),
      );
      expect(otherDevice!.status).toBe('applied');
      expect(await count(db, 'calendar_events', 'owner_id = $1 and deleted_at is null', [guest.id])).toBe(1);

      const [declined] = await push(
        db,
        guest,
        mutation('invitation.answer', { id: invitation!.id, accept: false, event_id: eventId }),
      );
      expect(declined!.status).toBe('applied');
      expect(declined!.rows.event_invitations).toMatchObject([{ status: 'declined', event_id: null }]);
      expect(declined!.deleted.calendar_events).toEqual([eventId]);
      expect((await eventOf(eventId))!.deleted_at).not.toBeNull();

      const [someoneElse] = await push(
        db,
        creator,
        mutation('invitation.answer', { id: invitation!.id, accept: true, event_id: uuid() }),
      );
      expect(someoneElse).toMatchObject(rejected('not_found', 'This invitation is no longer available.'));
      const [unknown] = await push(
        db,
        guest,
        mutation('invitation.answer', { id: uuid(), accept: true, event_id: uuid() }),
      );
      expect(unknown).toMatchObject(rejected('not_found', 'This invitation is no longer available.'));
    });

    it('picking again moves the creator’s event, accepted events and pending invitations, and offers the new slot', async () => {
      const { id, slots } = await timePoll([hourSlot('2031-12-03T09:00:00Z'), hourSlot('2031-12-10T15:00:00Z', 30)]);
      const [accepter, pending, newcomer] = [await createUser(db), await createUser(db), await createUser(db)];
      await push(db, accepter, answer(id, slots[0]!, 'yes'));
      await push(db, pending, answer(id, slots[0]!, 'maybe'));
      await push(db, newcomer, answer(id, slots[0]!, 'no'), answer(id, slots[1]!, 'yes'));
      const creatorEvent = uuid();
      await push(db, creator, pick(id, slots[0]!, creatorEvent));
      const accepted = (await invitations(id)).find((i) => i.user_id === accepter.id)!;
      const guestEvent = uuid();
      await push(db, accepter, mutation('invitation.answer', { id: accepted.id, accept: true, event_id: guestEvent }));

      const [again] = await push(db, creator, pick(id, slots[1]!, creatorEvent));
      expect(again!.status).toBe('applied');
      expect(again!.rows.voting_posts![0]).toMatchObject({ picked_slot_id: slots[1], pick_count: 2 });
      const moved = '2031-12-10T15:00:00.000Z';
      expect((await eventOf(creatorEvent))!.starts_at.toISOString()).toBe(moved);
      expect((await eventOf(creatorEvent))!.ends_at.toISOString()).toBe('2031-12-10T15:30:00.000Z');
      expect((await eventOf(guestEvent))!.starts_at.toISOString()).toBe(moved);
      const after = await invitations(id);
      expect(after.map((i) => [i.user_id, i.status, i.starts_at.toISOString()]).sort()).toEqual(
        [
          [accepter.id, 'accepted', moved],
          [pending.id, 'pending', moved],
          [newcomer.id, 'pending', moved],
        ].sort(),
      );
      expect(await count(db, 'calendar_events', 'owner_id = $1', [creator.id])).toBeGreaterThan(0);
      const { rows: mail } = await db.query<{ to_address: string; sequence: number }>(
        `select to_address, (calendar ->> 'sequence')::int as sequence from public.outgoing_mail
         where subject = 'Time changed: Team dinner' and calendar ->> 'uid' = $1`,
        [`${id}@linkboard`],
      );
      expect(mail.map((m) => m.to_address).sort()).toEqual(
        [creator.email, accepter.email, pending.email, newcomer.email].sort(),
      );
      expect(mail.every((m) => m.sequence === 2)).toBe(true);

      // The creator deleted their event: the next pick makes it again.
      await push(db, creator, mutation('event.delete', { id: creatorEvent }));
      const [third] = await push(db, creator, pick(id, slots[0]!, creatorEvent));
      expect(third!.status).toBe('applied');
      expect(third!.rows.calendar_events).toMatchObject([{ id: creatorEvent, deleted_at: null }]);
      expect((await eventOf(creatorEvent))!.starts_at.toISOString()).toBe('2031-12-03T09:00:00.000Z');
    });

    it('refuses the 11th pick of a poll within an hour', async () => {
      const { id, slots } = await timePoll([hourSlot('2031-12-03T09:00:00Z'), hourSlot('2031-12-03T12:00:00Z')]);
      const eventId = uuid();
      for (let i = 0; i < 10; i++) {
        const [result] = await push(db, creator, pick(id, slots[i % 2]!, eventId));
        expect(result!.status, `pick ${i + 1}`).toBe('applied');
      }
      const [eleventh] = await push(db, creator, pick(id, slots[0]!, eventId));
      expect(eleventh).toMatchObject(rejected('limit_reached', 'Too many requests. Please try again later.'));
      expect((await poll(id)).pick_count).toBe(10);
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
