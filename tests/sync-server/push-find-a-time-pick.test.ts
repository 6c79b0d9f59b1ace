/**
 * 'Find a time' polls through sync_push (docs/product.md, Find a time): poll.pick and
 * invitation.answer, the pick's event, invitations and mail (with its calendar); accepting,
 * declining and picking again; the pick's throttle.
 */
import { describe, expect, it } from 'vitest';
import { as, createUser, dbKinds } from '../support/db.ts';
import { changesOf, count, mutation, pullAll, push, uuid } from './sync.ts';
import {
  answer,
  creator,
  daySlot,
  db,
  eventOf,
  hourSlot,
  invitations,
  pick,
  poll,
  rejected,
  setupFindATime,
  timePoll,
} from './find-a-time-helpers.ts';

describe.each(dbKinds)('sync_push find a time (%s)', (kind) => {
  setupFindATime(kind);

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
});
