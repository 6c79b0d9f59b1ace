/**
 * 'Find a time' mutators (docs/product.md, Find a time): every refusal in the product's words, one
 * answers row per voter whose pending answers count once, and the rows a pick and an accept make.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import type { MutationArgs } from '../../src/domain/mutation-contract.ts';
import { slotCounts } from '../../src/domain/time-slots.ts';
import { NOW, ctx, freshDb, snapshot } from './helpers.ts';
import {
  ME,
  OTHER,
  makeDirectory,
  makeInvitation,
  makePoll,
  makeProfile,
  makeSlotAnswers,
  makeTimePoll,
  uuid,
} from '../support/builders.ts';

let db: LinkboardDb;
beforeEach(async () => {
  db = freshDb();
  await db.user_profiles.put(makeProfile({ username: 'me' }));
});

const pro = ctx({ tier: 'pro' });

async function expectRefused(run: () => Promise<unknown>, code: string, message: string) {
  const before = await snapshot(db);
  await expect(run()).rejects.toMatchObject({ code, message });
  expect(await snapshot(db)).toEqual(before);
}

const FUTURE = '2026-04-01T09:00:00.000Z';
const slot = (id = uuid()) => ({ id, start: FUTURE, minutes: 60 });
const createArgs = (over: Partial<MutationArgs['poll.create_time']> = {}): MutationArgs['poll.create_time'] => ({
  id: uuid(),
  title: ' When can we meet? ',
  time_zone: 'Europe/London',
  slots: [slot('s1'), { id: 's2', day: '2026-04-02' }],
  ...over,
});

describe('poll.create_time', () => {
  it("stores a time poll: its slots with their ids and zero counts, the creator's zone", async () => {
    const args = createArgs();
    await mutate(db, 'poll.create_time', args, pro);
    expect(await db.voting_posts.get(args.id)).toMatchObject({
      title: 'When can we meet?',
      kind: 'time',
      time_zone: 'Europe/London',
      created_by: 'me',
      created_by_id: ME,
      is_active: true,
      picked_slot_id: null,
      options: [
        { id: 's1', start: FUTURE, minutes: 60, day: null, yes: 0, maybe: 0, votes: 0 },
        { id: 's2', start: null, minutes: null, day: '2026-04-02', yes: 0, maybe: 0, votes: 0 },
      ],
    });
  });

  it('refuses what the server refuses, in its words', async () => {
    const run = (args: MutationArgs['poll.create_time']) => () => mutate(db, 'poll.create_time', args, pro);
    await expectRefused(run(createArgs({ title: ' ' })), 'invalid', 'Title is required.');
    await expectRefused(run(createArgs({ slots: [slot()] })), 'invalid', 'Please provide at least 2 time slots');
    await expectRefused(
      run(createArgs({ slots: Array.from({ length: 31 }, () => slot()) })),
      'invalid',
      'A poll can have at most 30 time slots.',
    );
    const badSlot = 'A time slot must start at a valid time and last from 15 minutes to 24 hours.';
    await expectRefused(
      run(createArgs({ slots: [slot(), { id: uuid(), start: FUTURE, minutes: 10 }] })),
      'invalid',
      badSlot,
    );
    await expectRefused(
      run(createArgs({ slots: [slot(), { id: uuid(), start: FUTURE, minutes: 1500 }] })),
      'invalid',
      badSlot,
    );
    await expectRefused(
      run(createArgs({ slots: [slot(), { id: uuid(), start: 'soon', minutes: 60 }] })),
      'invalid',
      badSlot,
    );
    await expectRefused(run(createArgs({ slots: [slot(), { id: uuid(), day: '2026-02-30' }] })), 'invalid', badSlot);
    await expectRefused(run(createArgs({ slots: [slot('x'), slot('x')] })), 'invalid', badSlot);
    await expectRefused(
      run(createArgs({ deadline: new Date(NOW.getTime() - 1).toISOString() })),
      'invalid',
      'The deadline cannot be earlier than now.',
    );
  });

  it("counts towards the Free quota with the options polls (the same check as poll.create's)", async () => {
    for (let i = 0; i < 4; i += 1)
      await mutate(db, 'poll.create', { id: uuid(), title: 'P', options: ['a', 'b'] }, ctx());
    await mutate(db, 'poll.create_time', createArgs(), ctx());
    await expectRefused(
      () => mutate(db, 'poll.create_time', createArgs(), ctx()),
      'limit_reached',
      'Upgrade to Pro to create more than 5 voting posts per month.',
    );
  });

  it('follows the Team plan rule for a team poll', async () => {
    const directory = makeDirectory({ owner_id: ME });
    await db.link_directories.put(directory);
    await expectRefused(
      () => mutate(db, 'poll.create_time', createArgs({ directory_id: directory.id }), pro),
      'limit_reached',
      'Shared team voting boards are exclusive to the Team plan.',
    );
    await mutate(db, 'poll.create_time', createArgs({ directory_id: directory.id }), ctx({ tier: 'team' }));
  });
});

const answer = (post_id: string, slot_id: string, value: 'yes' | 'maybe' | 'no', id = uuid()) =>
  ({ id, post_id, slot_id, answer: value }) as const;

describe('poll.answer', () => {
  it('refuses a missing poll, a team poll without access, a closed or picked poll, and a removed slot', async () => {
    const open = makeTimePoll();
    const ended = makeTimePoll({ deadline: new Date(NOW.getTime() - 1000).toISOString() });
    const picked = makeTimePoll({ picked_slot_id: 'slot-1' });
    const elsewhere = makeDirectory({ owner_id: OTHER, owner_tier: 'team' });
    const team = makeTimePoll({ directory_id: elsewhere.id });
    await db.link_directories.put(elsewhere);
    await db.voting_posts.bulkPut([open, ended, picked, team]);
    const run = (args: MutationArgs['poll.answer']) => () => mutate(db, 'poll.answer', args, ctx());
    await expectRefused(run(answer(uuid(), 'slot-1', 'yes')), 'not_found', 'Poll not found.');
    await expectRefused(
      run(answer(team.id, 'slot-1', 'yes')),
      'forbidden',
      'You do not have access to this directory.',
    );
    await expectRefused(run(answer(ended.id, 'slot-1', 'yes')), 'poll_closed', 'This poll is closed.');
    await expectRefused(run(answer(picked.id, 'slot-1', 'yes')), 'poll_closed', 'This poll is closed.');
    await expectRefused(run(answer(open.id, 'gone', 'yes')), 'not_found', 'This time slot no longer exists.');
    // An options poll has no slots.
    const choice = makePoll();
    await db.voting_posts.put(choice);
    await expectRefused(run(answer(choice.id, 'slot-1', 'yes')), 'not_found', 'This time slot no longer exists.');
  });

  it('merges answers to different slots into the one row of the voter', async () => {
    const poll = makeTimePoll();
    await db.voting_posts.put(poll);
    const id = uuid();
    await mutate(db, 'poll.answer', answer(poll.id, 'slot-1', 'yes', id), ctx());
    // A second answer sent under another id (another tab) still lands in the same row.
    await mutate(db, 'poll.answer', answer(poll.id, 'slot-2', 'maybe'), ctx());
    const rows = await db.slot_answers.where('post_id').equals(poll.id).toArray();
    expect(rows).toEqual([
      expect.objectContaining({
        id,
        user_id: ME,
        voter_name: 'me',
        answers: { 'slot-1': 'yes', 'slot-2': 'maybe' },
        local_base: {},
      }),
    ]);
  });

  it('counts a replayed answer once, over the server row it changes', async () => {
    // The server holds the voter's Yes to slot-1, counted in the poll.
    const poll = makeTimePoll();
    poll.options[0] = { ...poll.options[0]!, yes: 1, votes: 1 };
    const server = makeSlotAnswers({ post_id: poll.id, answers: { 'slot-1': 'yes' }, txid: '42' });
    await db.voting_posts.put(poll);
    await db.slot_answers.put(server);
    const args = answer(poll.id, 'slot-1', 'maybe', server.id);
    await mutate(db, 'poll.answer', args, ctx());
    await mutate(db, 'poll.answer', args, ctx());
    // The rebase applies it again over the same rows: still counted once.
    await db.transaction('rw', db.tables, async () => {
      const { mutators } = await import('../../src/data/mutators.ts');
      await mutators['poll.answer'].apply(db, args, ctx());
    });
    const rows = await db.slot_answers.where('post_id').equals(poll.id).toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ answers: { 'slot-1': 'maybe' }, local_base: { 'slot-1': 'yes' } });
    expect(slotCounts(poll.options, rows[0])).toEqual([
      { yes: 0, maybe: 1 },
      { yes: 0, maybe: 0 },
      { yes: 0, maybe: 0 },
    ]);
  });

  it("keeps the server's row when a device's own row is there too (one row per voter)", async () => {
    const poll = makeTimePoll();
    const mine = makeSlotAnswers({ post_id: poll.id, answers: { 'slot-2': 'no' }, local_base: {} });
    const server = makeSlotAnswers({ post_id: poll.id, answers: { 'slot-1': 'yes' }, txid: '7' });
    await db.voting_posts.put(poll);
    await db.slot_answers.bulkPut([mine, server]);
    await mutate(db, 'poll.answer', answer(poll.id, 'slot-2', 'no', mine.id), ctx());
    expect(await db.slot_answers.where('post_id').equals(poll.id).toArray()).toEqual([
      expect.objectContaining({
        id: server.id,
        answers: { 'slot-1': 'yes', 'slot-2': 'no' },
        local_base: { 'slot-1': 'yes' },
      }),
    ]);
  });

  it('lets a team member answer a team poll', async () => {
    const directory = makeDirectory({ owner_id: OTHER, owner_tier: 'team' });
    const poll = makeTimePoll({ directory_id: directory.id });
    await db.link_directories.put(directory);
    await db.directory_members.put({
      id: uuid(),
      directory_id: directory.id,
      user_email: 'me@example.com',
      role: 'viewer',
      inviter_id: OTHER,
      created_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    await db.voting_posts.put(poll);
    await mutate(db, 'poll.answer', answer(poll.id, 'slot-3', 'yes'), ctx());
    expect(await db.slot_answers.where('post_id').equals(poll.id).first()).toMatchObject({
      directory_id: directory.id,
      answers: { 'slot-3': 'yes' },
    });
  });
});

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
