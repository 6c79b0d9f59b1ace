/**
 * 'Find a time' mutators (docs/product.md, Find a time): every refusal in the product's words, one
 * answers row per voter whose pending answers count once, and the rows a pick and an accept make.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import type { MutationArgs } from '../../src/domain/mutation-contract.ts';
import { slotCounts } from '../../src/domain/time-slots.ts';
import { NOW, ctx } from './helpers.ts';
import { FUTURE, answer, createArgs, db, expectRefused, freshTimePollDb, pro, slot } from './time-poll-setup.ts';
import { ME, OTHER, makeDirectory, makePoll, makeSlotAnswers, makeTimePoll, uuid } from '../support/builders.ts';

beforeEach(freshTimePollDb);

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
