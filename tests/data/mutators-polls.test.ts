/** The polls' and the profile's mutators: mutators.test.ts has the rest. */
import { beforeEach, describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { NOW, ctx } from './helpers.ts';
import { db, expectRefused, freshMutatorDb, pro } from './mutator-setup.ts';
import { ME, OTHER, makeDirectory, makeEvent, makeMember, makePoll, makeProfile, uuid } from '../support/builders.ts';

beforeEach(freshMutatorDb);

describe('polls', () => {
  it('validates options (2 to 6, first two required) and the deadline', async () => {
    const bad = [['a'], ['a', ''], ['', 'b', 'c'], ['1', '2', '3', '4', '5', '6', '7']];
    for (const options of bad) {
      await expectRefused(
        () => mutate(db, 'poll.create', { id: uuid(), title: 'P', options }, ctx()),
        'invalid',
        'Please provide at least 2 voting options',
      );
    }
    await expectRefused(
      () =>
        mutate(
          db,
          'poll.create',
          { id: uuid(), title: 'P', options: ['a', 'b'], deadline: '2026-03-15T11:00:00Z' },
          ctx(),
        ),
      'invalid',
    );
    const id = uuid();
    await mutate(db, 'poll.create', { id, title: ' P ', options: [' a ', 'b', ''] }, ctx());
    expect(await db.voting_posts.get(id)).toMatchObject({
      title: 'P',
      options: [
        { text: 'a', votes: 0 },
        { text: 'b', votes: 0 },
      ],
      // No profile on this device yet: no username to show, and never the address.
      created_by: null,
      created_by_id: ME,
      directory_id: null,
    });
  });

  it('records the creator as the username, as the server does, never the address', async () => {
    await db.user_profiles.put(makeProfile());
    const id = uuid();
    await mutate(db, 'poll.create', { id, title: 'P', options: ['a', 'b'] }, ctx());
    expect(await db.voting_posts.get(id)).toMatchObject({ created_by: 'me', created_by_id: ME });
  });

  it('team polls in a directory are Team only', async () => {
    const dir = makeDirectory();
    await db.link_directories.put(dir);
    await expectRefused(
      () => mutate(db, 'poll.create', { id: uuid(), title: 'P', options: ['a', 'b'], directory_id: dir.id }, pro),
      'limit_reached',
      'Shared team voting boards are exclusive to the Team plan.',
    );
    await mutate(
      db,
      'poll.create',
      { id: uuid(), title: 'P', options: ['a', 'b'], directory_id: dir.id },
      ctx({ tier: 'team' }),
    );
  });

  it("team polls follow the directory owner's plan: a Free member of a Team directory may create one", async () => {
    const team = makeDirectory({ owner_id: OTHER, owner_tier: 'team' });
    const pro_ = makeDirectory({ owner_id: OTHER, owner_tier: 'pro' });
    await db.link_directories.bulkPut([team, pro_]);
    await db.directory_members.bulkPut([
      makeMember({ directory_id: team.id, user_email: 'me@example.com', role: 'viewer' }),
      makeMember({ directory_id: pro_.id, user_email: 'me@example.com', role: 'editor' }),
    ]);
    // Five public polls this month: the Free quota is used up, yet a team poll is not counted against it.
    await db.voting_posts.bulkPut(
      Array.from({ length: 5 }, () => makePoll({ created_by_id: ME, created_at: NOW.toISOString() })),
    );
    await mutate(db, 'poll.create', { id: uuid(), title: 'T', options: ['a', 'b'], directory_id: team.id }, ctx());
    await expectRefused(
      () => mutate(db, 'poll.create', { id: uuid(), title: 'T', options: ['a', 'b'], directory_id: pro_.id }, ctx()),
      'limit_reached',
      'Shared team voting boards are exclusive to the Team plan.',
    );
    await expectRefused(
      () => mutate(db, 'poll.create', { id: uuid(), title: 'P', options: ['a', 'b'] }, ctx()),
      'limit_reached',
    );
  });

  it('votes once on an open poll and counts the vote', async () => {
    const poll = makePoll();
    const closed = makePoll({ deadline: '2026-03-15T11:59:00Z' });
    await db.voting_posts.bulkPut([poll, closed]);
    await expectRefused(
      () => mutate(db, 'poll.vote', { id: uuid(), post_id: closed.id, option_index: 0 }, ctx()),
      'poll_closed',
      'This poll is closed.',
    );
    await expectRefused(
      () => mutate(db, 'poll.vote', { id: uuid(), post_id: poll.id, option_index: 2 }, ctx()),
      'invalid',
    );
    await expectRefused(
      () => mutate(db, 'poll.vote', { id: uuid(), post_id: uuid(), option_index: 0 }, ctx()),
      'not_found',
    );
    await mutate(db, 'poll.vote', { id: uuid(), post_id: poll.id, option_index: 1 }, ctx());
    expect((await db.voting_posts.get(poll.id))?.options.map((o) => o.votes)).toEqual([0, 1]);
    await expectRefused(
      () => mutate(db, 'poll.vote', { id: uuid(), post_id: poll.id, option_index: 0 }, ctx()),
      'already_voted',
      'You have already voted on this poll.',
    );
  });
});

describe('profile', () => {
  it('validates username and time zone, and updates the own profile', async () => {
    await db.user_profiles.put(makeProfile());
    await expectRefused(
      () => mutate(db, 'profile.update', { username: 'ab' }, ctx()),
      'invalid',
      'Please choose a username (min 3 chars).',
    );
    await expectRefused(() => mutate(db, 'profile.update', { time_zone: 'Mars/Olympus' }, ctx()), 'invalid');
    await mutate(db, 'profile.update', { username: 'New_Name', bio: null, time_zone: 'Europe/Paris' }, ctx());
    expect(await db.user_profiles.get(ME)).toMatchObject({ username: 'new_name', bio: '', time_zone: 'Europe/Paris' });
  });
});

it('an event of another owner is not found', async () => {
  const event = makeEvent({ owner_id: OTHER });
  await db.calendar_events.put(event);
  await expectRefused(() => mutate(db, 'task.set_completed', { id: event.id, value: true }, ctx()), 'not_found');
});
