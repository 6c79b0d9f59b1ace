/**
 * 'Find a time' mutators (docs/product.md, Find a time), as time-polls.test.ts: removing a slot,
 * the pick and the rows it makes, an invitation's answer, and an answer's prediction as the screen
 * reads it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { slotCounts } from '../../src/domain/time-slots.ts';
import { ctx } from './helpers.ts';
import { answer, db, expectRefused, freshTimePollDb } from './time-poll-setup.ts';
import { ME, OTHER, makeInvitation, makeSlotAnswers, makeTimePoll, uuid } from '../support/builders.ts';

beforeEach(freshTimePollDb);

describe('poll.remove_slot', () => {
  it('is the creator’s, names an existing slot, and never the last one', async () => {
    const others = makeTimePoll();
    const mine = makeTimePoll({ created_by_id: ME });
    const single = makeTimePoll({ created_by_id: ME, options: [makeTimePoll().options[0]!] });
    await db.voting_posts.bulkPut([others, mine, single]);
    const run = (id: string, slot_id: string) => () => mutate(db, 'poll.remove_slot', { id, slot_id }, ctx());
    await expectRefused(run(others.id, 'slot-1'), 'forbidden', 'Only the creator of this poll can remove a slot.');
    await expectRefused(run(mine.id, 'gone'), 'not_found', 'This time slot no longer exists.');
    await expectRefused(run(single.id, 'slot-1'), 'invalid', 'A poll needs at least one time slot.');
  });

  it('takes the slot and its answers off the poll', async () => {
    const poll = makeTimePoll({ created_by_id: ME });
    const answers = makeSlotAnswers({ post_id: poll.id, answers: { 'slot-1': 'yes', 'slot-2': 'no' } });
    await db.voting_posts.put(poll);
    await db.slot_answers.put(answers);
    await mutate(db, 'poll.remove_slot', { id: poll.id, slot_id: 'slot-1' }, ctx());
    expect((await db.voting_posts.get(poll.id))?.options.map((option) => option.id)).toEqual(['slot-2', 'slot-3']);
    expect((await db.slot_answers.get(answers.id))?.answers).toEqual({ 'slot-2': 'no' });
  });
});

describe('poll.pick', () => {
  it('is the creator’s, of an existing slot', async () => {
    const others = makeTimePoll();
    const mine = makeTimePoll({ created_by_id: ME });
    await db.voting_posts.bulkPut([others, mine]);
    const run = (id: string, slot_id: string) => () =>
      mutate(db, 'poll.pick', { id, slot_id, event_id: uuid() }, ctx());
    await expectRefused(run(others.id, 'slot-1'), 'forbidden', 'Only the creator of this poll can pick the time.');
    await expectRefused(run(mine.id, 'gone'), 'not_found', 'This time slot no longer exists.');
  });

  it("closes the poll and makes the creator's event, then moves it when picked again", async () => {
    const poll = makeTimePoll({ created_by_id: ME, description: 'Agenda' });
    await db.voting_posts.put(poll);
    const eventId = uuid();
    await mutate(db, 'poll.pick', { id: poll.id, slot_id: 'slot-1', event_id: eventId }, ctx());
    expect(await db.voting_posts.get(poll.id)).toMatchObject({ picked_slot_id: 'slot-1', picked_event_id: eventId });
    expect(await db.calendar_events.get(eventId)).toMatchObject({
      title: 'Planning meeting',
      description: 'Agenda',
      owner_id: ME,
      starts_at: '2026-03-16T09:00:00.000Z',
      ends_at: '2026-03-16T10:00:00.000Z',
      all_day: false,
      is_task: false,
    });
    // The whole day slot-3 in the creator's zone (London, GMT in March).
    await mutate(db, 'poll.pick', { id: poll.id, slot_id: 'slot-3', event_id: eventId }, ctx());
    expect(await db.calendar_events.count()).toBe(1);
    expect(await db.calendar_events.get(eventId)).toMatchObject({
      starts_at: '2026-03-18T00:00:00.000Z',
      ends_at: '2026-03-19T00:00:00.000Z',
      all_day: true,
    });
    // Picked, the poll takes no answers.
    await expectRefused(
      () => mutate(db, 'poll.answer', answer(poll.id, 'slot-1', 'yes'), ctx()),
      'poll_closed',
      'This poll is closed.',
    );
  });
});

describe('invitation.answer', () => {
  it('refuses an invitation that is not there, or not the user’s', async () => {
    const others = makeInvitation({ user_id: OTHER });
    await db.event_invitations.put(others);
    const message = 'This invitation is no longer available.';
    await expectRefused(
      () => mutate(db, 'invitation.answer', { id: uuid(), accept: true, event_id: uuid() }, ctx()),
      'not_found',
      message,
    );
    await expectRefused(
      () => mutate(db, 'invitation.answer', { id: others.id, accept: true, event_id: uuid() }, ctx()),
      'not_found',
      message,
    );
  });

  it('accept adds the event of the picked time; decline takes it away', async () => {
    const invitation = makeInvitation({ all_day: false, description: 'Bring notes' });
    await db.event_invitations.put(invitation);
    const eventId = uuid();
    await mutate(db, 'invitation.answer', { id: invitation.id, accept: true, event_id: eventId }, ctx());
    expect(await db.event_invitations.get(invitation.id)).toMatchObject({ status: 'accepted', event_id: eventId });
    expect(await db.calendar_events.get(eventId)).toMatchObject({
      title: 'Planning meeting',
      description: 'Bring notes',
      starts_at: invitation.starts_at,
      ends_at: invitation.ends_at,
      owner_id: ME,
    });
    await mutate(db, 'invitation.answer', { id: invitation.id, accept: false, event_id: eventId }, ctx());
    expect(await db.event_invitations.get(invitation.id)).toMatchObject({ status: 'declined', event_id: null });
    expect(await db.calendar_events.get(eventId)).toBeUndefined();
  });
});

describe('the prediction of an answer', () => {
  it('shows the merged row before the transaction has read anything', async () => {
    const poll = makeTimePoll();
    const server = makeSlotAnswers({ post_id: poll.id, answers: { 'slot-1': 'yes' }, txid: '9' });
    await db.voting_posts.put(poll);
    await db.slot_answers.put(server);
    // The screen read the row: the prediction knows it.
    await db.slot_answers.get(server.id);
    const done = mutate(db, 'poll.answer', answer(poll.id, 'slot-2', 'maybe', server.id), ctx());
    const [write] = db.pending.forTable('slot_answers', db.pending.currentEpoch());
    expect(write?.update?.(server)).toMatchObject({
      answers: { 'slot-1': 'yes', 'slot-2': 'maybe' },
      local_base: { 'slot-1': 'yes' },
    });
    await done;
  });

  it('shows a first answer as a new row', async () => {
    const poll = makeTimePoll();
    await db.voting_posts.put(poll);
    const id = uuid();
    const done = mutate(db, 'poll.answer', answer(poll.id, 'slot-1', 'yes', id), ctx());
    expect(db.pending.forTable('slot_answers', db.pending.currentEpoch())).toMatchObject([
      { key: id, row: { answers: { 'slot-1': 'yes' }, local_base: {} } },
    ]);
    await done;
  });
});

describe("the screen's read and an answer's prediction", () => {
  it('the rows the grid reads are the ones a prediction finds: the merged row and its counts before the commit', async () => {
    const { readTimePollRows, groupTimePollRows } = await import('../../src/data/queries/time-polls.ts');
    const { overlay } = await import('../../src/data/queries/live-rows.ts');
    const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
    const { openUserDb } = await import('../../src/data/db.ts');
    const indexedDB = new IDBFactory();
    const polls = [makeTimePoll(), makeTimePoll()];
    polls[0]!.options[0] = { ...polls[0]!.options[0]!, yes: 1, votes: 1 };
    const server = makeSlotAnswers({ post_id: polls[0]!.id, answers: { 'slot-1': 'yes', 'slot-2': 'no' }, txid: '3' });
    const writer = openUserDb(ME, { indexedDB, IDBKeyRange });
    await writer.voting_posts.bulkPut(polls);
    await writer.slot_answers.put(server);
    writer.close();
    // A page loaded later: it knows only the rows it has read.
    const page = openUserDb(ME, { indexedDB, IDBKeyRange });
    const read = await readTimePollRows(
      page,
      polls.map((poll) => poll.id),
    );
    const since = page.pending.currentEpoch();
    const done = mutate(page, 'poll.answer', answer(polls[0]!.id, 'slot-1', 'maybe', server.id), ctx());
    // No await yet: what the screen lays over its read in the click's frame.
    const answers = overlay(read.answers, page.pending.forTable('slot_answers', since), {
      belongs: () => true,
      compare: () => 0,
    });
    const [mine] = groupTimePollRows({ answers, invitations: [] }, ME).answers.get(polls[0]!.id) ?? [];
    expect(mine).toMatchObject({
      answers: { 'slot-1': 'maybe', 'slot-2': 'no' },
      local_base: { 'slot-1': 'yes', 'slot-2': 'no' },
    });
    expect(slotCounts(polls[0]!.options, mine)[0]).toEqual({ yes: 0, maybe: 1 });
    await done;
    page.close();
  });
});
