/**
 * 'Find a time' polls through sync_push (docs/product.md, Find a time): poll.answer, the counts from
 * the answers, one row per voter however often or from however many devices an answer comes, and
 * its refusals.
 */
import { describe, expect, it } from 'vitest';
import { as, createUser, dbKinds } from '../support/db.ts';
import { changesOf, count, makeDirectory, mutation, pullAll, push, uuid } from './sync.ts';
import {
  answer,
  counts,
  creator,
  daySlot,
  db,
  hourSlot,
  rejected,
  setupFindATime,
  timePoll,
} from './find-a-time-helpers.ts';

describe.each(dbKinds)('sync_push find a time (%s)', (kind) => {
  setupFindATime(kind);

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
});
