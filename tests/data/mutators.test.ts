import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { mutators } from '../../src/data/mutators.ts';
import { OUTBOX_VERSION } from '../../src/data/outbox.ts';
import { mutationNames } from '../../src/domain/mutation-contract.ts';
import { NOW, ctx, freshDb, snapshot } from './helpers.ts';
import {
  ME,
  OTHER,
  makeDirectory,
  makeEvent,
  makeLink,
  makeMember,
  makePoll,
  makeProfile,
  uuid,
} from '../support/builders.ts';

let db: LinkboardDb;
beforeEach(() => {
  db = freshDb();
});

const pro = ctx({ tier: 'pro' });

async function expectRefused(run: () => Promise<unknown>, code: string, message?: string) {
  const before = await snapshot(db);
  await expect(run()).rejects.toMatchObject(message ? { code, message } : { code });
  expect(await snapshot(db)).toEqual(before);
}

it('has a client mutator for every contract mutation', () => {
  expect(Object.keys(mutators).sort()).toEqual([...mutationNames].sort());
});

describe('mutate', () => {
  it('applies the change and appends the outbox row in one transaction', async () => {
    const id = uuid();
    const row = await mutate(db, 'directory.create', { id, name: '  Reading ', color: 'green' }, ctx(), { id: 'm-1' });
    expect(row).toMatchObject({ id: 'm-1', name: 'directory.create', attempts: 0, status: 'pending' });
    expect(await db.link_directories.get(id)).toMatchObject({ name: 'Reading', color: 'green', owner_id: ME });
    expect(await db.outbox.toArray()).toEqual([
      {
        seq: 1,
        id: 'm-1',
        name: 'directory.create',
        args: { id, name: 'Reading', color: 'green' },
        created_at: ctx().now().toISOString(),
        attempts: 0,
        status: 'pending',
        version: OUTBOX_VERSION,
      },
    ]);
  });

  it('gives each mutation a fresh uuid and keeps them in order', async () => {
    await mutate(db, 'directory.create', { id: uuid(), name: 'A' }, pro);
    await mutate(db, 'directory.create', { id: uuid(), name: 'B' }, pro);
    const queue = await db.outbox.orderBy('seq').toArray();
    expect(queue.map((row) => row.args.name)).toEqual(['A', 'B']);
    expect(queue[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(queue[0]?.id).not.toBe(queue[1]?.id);
  });

  it('notifies listeners after commit, not on refusal', async () => {
    const seen: string[] = [];
    db.onMutation((m) => seen.push(m.name));
    await mutate(db, 'directory.create', { id: uuid(), name: 'A' }, ctx());
    await mutate(db, 'directory.create', { id: uuid(), name: 'B' }, ctx()).catch(() => undefined);
    expect(seen).toEqual(['directory.create']);
  });
});

describe('directories', () => {
  it('validates name and colour', async () => {
    await expectRefused(() => mutate(db, 'directory.create', { id: uuid(), name: '  ' }, ctx()), 'invalid');
    await expectRefused(
      () => mutate(db, 'directory.create', { id: uuid(), name: 'x', color: 'red' as never }, ctx()),
      'invalid',
    );
  });

  it('passwords are Pro; is_public false clears has_password', async () => {
    await expectRefused(
      () => mutate(db, 'directory.create', { id: uuid(), name: 'x', is_public: true, password: 'pw' }, ctx()),
      'limit_reached',
    );
    const id = uuid();
    await mutate(db, 'directory.create', { id, name: 'x', is_public: true, password: 'pw' }, pro);
    expect(await db.link_directories.get(id)).toMatchObject({ is_public: true, has_password: true });
    expect(await db.link_directories.get(id)).not.toHaveProperty('password');
    await mutate(db, 'directory.update', { id, is_public: false }, pro);
    expect(await db.link_directories.get(id)).toMatchObject({ is_public: false, has_password: false });
  });

  it('only the owner updates or deletes; delete drops the content', async () => {
    const theirs = makeDirectory({ owner_id: OTHER });
    const mine = makeDirectory();
    const poll = makePoll({ directory_id: mine.id });
    await db.link_directories.bulkPut([theirs, mine]);
    await db.saved_links.put(makeLink({ directory_id: mine.id }));
    await db.directory_members.put(makeMember({ directory_id: mine.id }));
    await db.voting_posts.put(poll);
    await db.user_votes.put({
      id: uuid(),
      post_id: poll.id,
      option_index: 0,
      user_email: 'me@example.com',
      user_id: ME,
      created_at: '',
      updated_at: '',
    });
    await expectRefused(() => mutate(db, 'directory.update', { id: theirs.id, name: 'n' }, ctx()), 'forbidden');
    await expectRefused(() => mutate(db, 'directory.delete', { id: theirs.id }, ctx()), 'forbidden');
    await expectRefused(
      () => mutate(db, 'directory.delete', { id: uuid() }, ctx()),
      'not_found',
      'Directory not found.',
    );
    await mutate(db, 'directory.update', { id: mine.id, name: 'Renamed', description: '' }, ctx());
    expect(await db.link_directories.get(mine.id)).toMatchObject({ name: 'Renamed', description: null });
    await mutate(db, 'directory.delete', { id: mine.id }, ctx());
    expect([
      await db.saved_links.count(),
      await db.directory_members.count(),
      await db.voting_posts.count(),
      await db.user_votes.count(),
    ]).toEqual([0, 0, 0, 0]);
  });
});

describe('links', () => {
  let dir = makeDirectory();
  beforeEach(async () => {
    dir = makeDirectory();
    await db.link_directories.put(dir);
  });

  it('prepends https:// and refuses other schemes', async () => {
    const id = uuid();
    await mutate(
      db,
      'link.create',
      { id, directory_id: dir.id, url: ' example.com/a ', title: ' A ', notes: '' },
      ctx(),
    );
    expect(await db.saved_links.get(id)).toMatchObject({
      url: 'https://example.com/a',
      title: 'A',
      notes: null,
      owner_id: ME,
      created_by: ME,
    });
    await mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url: 'http://x.test', title: 'B' }, ctx());
    await mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url: 'localhost:8080/x', title: 'C' }, ctx());
    for (const url of ['javascript:alert(1)', 'ftp://x.test', 'mailto:a@b.c', 'data:text/html,x']) {
      await expectRefused(
        () => mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url, title: 'x' }, ctx()),
        'invalid',
        'Only http and https links can be saved.',
      );
    }
  });

  it('requires url and title', async () => {
    await expectRefused(
      () => mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url: '', title: 'x' }, ctx()),
      'invalid',
    );
    await expectRefused(
      () => mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url: 'a.test', title: ' ' }, ctx()),
      'invalid',
    );
  });

  it("keeps a given creation time (an imported bookmark's ADD_DATE), clamped within a minute's skew", async () => {
    const create = (created_at: string | null | undefined) =>
      mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url: 'a.test', title: 'A', created_at }, pro);
    const old = await create('2012-03-04T06:06:07+01:00');
    expect(old.args.created_at).toBe('2012-03-04T05:06:07.000Z');
    expect(await db.saved_links.get(String(old.args.id))).toMatchObject({
      created_at: '2012-03-04T05:06:07.000Z',
      updated_at: NOW.toISOString(),
    });
    const ahead = await create(new Date(NOW.getTime() + 30_000).toISOString());
    expect((await db.saved_links.get(String(ahead.args.id)))?.created_at).toBe(NOW.toISOString());
    const none = await create(null);
    expect((await db.saved_links.get(String(none.args.id)))?.created_at).toBe(NOW.toISOString());
    for (const bad of ['1989-12-31T23:59:59Z', new Date(NOW.getTime() + 120_000).toISOString(), 'yesterday']) {
      await expectRefused(() => create(bad), 'invalid', 'Invalid creation date.');
    }
  });

  it('cleans tags on Pro, sets favourite, updates and deletes', async () => {
    const id = uuid();
    await mutate(
      db,
      'link.create',
      { id, directory_id: dir.id, url: 'a.test', title: 'A', tags: [' a', 'a ', '', 'b'] },
      pro,
    );
    expect((await db.saved_links.get(id))?.tags).toEqual(['a', 'b']);
    await mutate(db, 'link.set_favorite', { id, value: true }, pro);
    await mutate(db, 'link.update', { id, title: 'New', url: 'b.test' }, pro);
    expect(await db.saved_links.get(id)).toMatchObject({
      title: 'New',
      url: 'https://b.test',
      is_favorite: true,
      tags: ['a', 'b'],
    });
    await mutate(db, 'link.delete', { id }, pro);
    expect(await db.saved_links.get(id)).toBeUndefined();
    expect(await db.outbox.count()).toBe(4);
  });

  it('viewer is read-only; editor may add and edit links', async () => {
    const shared = makeDirectory({ owner_id: OTHER });
    const link = makeLink({ directory_id: shared.id, owner_id: OTHER });
    await db.link_directories.put(shared);
    await db.saved_links.put(link);
    const membership = makeMember({ directory_id: shared.id, user_email: 'me@example.com', role: 'viewer' });
    await db.directory_members.put(membership);
    await expectRefused(
      () => mutate(db, 'link.create', { id: uuid(), directory_id: shared.id, url: 'a.test', title: 'x' }, ctx()),
      'forbidden',
    );
    await expectRefused(() => mutate(db, 'link.update', { id: link.id, title: 'x' }, ctx()), 'forbidden');
    await db.directory_members.put({ ...membership, role: 'editor' });
    const id = uuid();
    await mutate(db, 'link.create', { id, directory_id: shared.id, url: 'a.test', title: 'x' }, ctx());
    expect(await db.saved_links.get(id)).toMatchObject({ owner_id: OTHER, created_by: ME });
    await mutate(db, 'link.update', { id: link.id, title: 'edited' }, ctx());
    await expectRefused(
      () => mutate(db, 'link.create', { id: uuid(), directory_id: uuid(), url: 'a.test', title: 'x' }, ctx()),
      'not_found',
    );
  });
});

describe('members', () => {
  it('only the owner invites, changes roles and removes', async () => {
    const theirs = makeDirectory({ owner_id: OTHER });
    const mine = makeDirectory();
    await db.link_directories.bulkPut([theirs, mine]);
    await expectRefused(
      () =>
        mutate(
          db,
          'member.invite',
          { id: uuid(), directory_id: theirs.id, user_email: 'a@b.c', role: 'viewer' },
          ctx(),
        ),
      'forbidden',
      'Only the owner can manage members.',
    );
    await expectRefused(
      () =>
        mutate(db, 'member.invite', { id: uuid(), directory_id: mine.id, user_email: 'nope', role: 'viewer' }, ctx()),
      'invalid',
    );
    const id = uuid();
    await mutate(db, 'member.invite', { id, directory_id: mine.id, user_email: 'a@b.c', role: 'editor' }, pro);
    await expectRefused(
      () =>
        mutate(db, 'member.invite', { id: uuid(), directory_id: mine.id, user_email: 'A@b.c', role: 'viewer' }, pro),
      'conflict',
    );
    await mutate(db, 'member.set_role', { id, role: 'viewer' }, pro);
    expect((await db.directory_members.get(id))?.role).toBe('viewer');
    await mutate(db, 'member.remove', { id }, pro);
    expect(await db.directory_members.count()).toBe(0);
  });
});

describe('events, tasks and series', () => {
  it('validates events and applies create, update, complete and delete', async () => {
    await expectRefused(
      () =>
        mutate(db, 'event.create', { id: uuid(), title: 'x', starts_at: null, ends_at: null, is_task: false }, ctx()),
      'invalid',
      'Start is required for events.',
    );
    await expectRefused(
      () =>
        mutate(
          db,
          'event.create',
          { id: uuid(), title: '', starts_at: '2026-03-16T09:00:00Z', ends_at: null, is_task: false },
          ctx(),
        ),
      'invalid',
    );
    await expectRefused(
      () =>
        mutate(
          db,
          'event.create',
          {
            id: uuid(),
            title: 'x',
            starts_at: '2026-03-16T09:00:00Z',
            ends_at: '2026-03-16T08:00:00Z',
            is_task: false,
          },
          ctx(),
        ),
      'invalid',
    );
    const task = uuid();
    await mutate(
      db,
      'event.create',
      { id: task, title: 'T', starts_at: null, ends_at: null, is_task: true, priority: 'high' },
      ctx(),
    );
    await mutate(db, 'task.set_completed', { id: task, value: true }, ctx());
    await mutate(db, 'event.update', { id: task, title: 'T2', priority: 'low' }, ctx());
    expect(await db.calendar_events.get(task)).toMatchObject({
      title: 'T2',
      is_completed: true,
      priority: 'low',
      is_task: true,
    });
    await expectRefused(() => mutate(db, 'event.update', { id: task, priority: 'urgent' as never }, ctx()), 'invalid');
    await mutate(db, 'event.delete', { id: task }, ctx());
    expect(await db.calendar_events.count()).toBe(0);
    await expectRefused(() => mutate(db, 'event.delete', { id: task }, ctx()), 'not_found');
  });

  it('turns a task into an event and back, counting the month quota, never inside a series', async () => {
    const task = makeEvent({ is_task: true, priority: 'high', starts_at: null, ends_at: null });
    await db.calendar_events.put(task);
    // An event needs a start.
    await expectRefused(() => mutate(db, 'event.update', { id: task.id, is_task: false }, ctx()), 'invalid');
    await mutate(
      db,
      'event.update',
      { id: task.id, is_task: false, starts_at: '2026-03-16T09:00:00Z', ends_at: '2026-03-16T10:00:00Z' },
      ctx(),
    );
    expect(await db.calendar_events.get(task.id)).toMatchObject({ is_task: false, priority: null });
    await mutate(db, 'event.update', { id: task.id, is_task: true, priority: 'low' }, ctx());
    expect(await db.calendar_events.get(task.id)).toMatchObject({ is_task: true, priority: 'low' });

    // A Free user with 10 events this month cannot turn an 11th task into an event.
    await db.calendar_events.bulkPut(
      Array.from({ length: 10 }, () => makeEvent({ created_at: NOW.toISOString(), updated_at: NOW.toISOString() })),
    );
    await expectRefused(
      () => mutate(db, 'event.update', { id: task.id, is_task: false }, ctx()),
      'limit_reached',
      'Upgrade to Pro to create more than 10 events per month.',
    );
    await mutate(db, 'event.update', { id: task.id, is_task: false }, pro);

    const member = makeEvent({ series_id: uuid(), recurrence_rule: 'weekly' });
    await db.calendar_events.put(member);
    await expectRefused(
      () => mutate(db, 'event.update', { id: member.id, is_task: true }, pro),
      'invalid',
      'An event in a recurring series cannot become a task.',
    );
  });

  it('creates, replaces, detaches and deletes a series (Pro)', async () => {
    const occ = (day: number) => ({
      id: uuid(),
      title: 'Gym',
      description: '',
      starts_at: `2026-03-1${day}T07:00:00Z`,
      ends_at: `2026-03-1${day}T08:00:00Z`,
    });
    const first = uuid();
    const occurrences = [occ(6), occ(7), occ(8)];
    await mutate(
      db,
      'series.create',
      { series_id: first, rule: 'daily', until: '2026-03-18T23:59:00Z', occurrences },
      pro,
    );
    expect(await db.calendar_events.where('series_id').equals(first).count()).toBe(3);
    expect(await db.calendar_events.get(occurrences[0]!.id)).toMatchObject({
      recurrence_rule: 'daily',
      description: null,
      is_task: false,
    });
    await mutate(db, 'occurrence.detach', { id: occurrences[0]!.id, title: 'Solo' }, pro);
    expect(await db.calendar_events.get(occurrences[0]!.id)).toMatchObject({
      series_id: null,
      recurrence_rule: 'none',
      title: 'Solo',
    });
    const second = uuid();
    await mutate(
      db,
      'series.replace',
      { old_series_id: first, series_id: second, rule: 'weekly', until: '2026-03-30T00:00:00Z', occurrences: [occ(6)] },
      pro,
    );
    expect(await db.calendar_events.where('series_id').equals(first).count()).toBe(0);
    expect(await db.calendar_events.where('series_id').equals(second).count()).toBe(1);
    await mutate(db, 'series.delete', { series_id: second }, pro);
    expect(await db.calendar_events.count()).toBe(1);
    await expectRefused(
      () =>
        mutate(
          db,
          'series.create',
          { series_id: uuid(), rule: 'yearly' as never, until: '2026-04-01T00:00:00Z', occurrences: [occ(6)] },
          pro,
        ),
      'invalid',
    );
    await expectRefused(
      () =>
        mutate(
          db,
          'series.create',
          { series_id: uuid(), rule: 'daily', until: '2026-04-01T00:00:00Z', occurrences: [] },
          pro,
        ),
      'invalid',
    );
  });
});

describe('reminders', () => {
  const event = (extra: Record<string, unknown> = {}) => ({
    id: uuid(),
    title: 'Dentist',
    starts_at: '2026-03-16T09:00:00Z',
    ends_at: '2026-03-16T10:00:00Z',
    is_task: false,
    ...extra,
  });

  it('sets, changes and clears an event reminder; refuses an offset not offered', async () => {
    const args = event({ reminder_minutes: 15 });
    await mutate(db, 'event.create', args, ctx());
    expect(await db.calendar_events.get(args.id)).toMatchObject({ reminder_minutes: 15 });
    const plain = event();
    await mutate(db, 'event.create', plain, ctx());
    expect(await db.calendar_events.get(plain.id)).toMatchObject({ reminder_minutes: null });
    await mutate(db, 'event.update', { id: args.id, reminder_minutes: 1440 }, ctx());
    expect(await db.calendar_events.get(args.id)).toMatchObject({ reminder_minutes: 1440 });
    await mutate(db, 'event.update', { id: args.id, title: 'Dentist (moved)' }, ctx());
    expect(await db.calendar_events.get(args.id)).toMatchObject({ reminder_minutes: 1440 });
    await mutate(db, 'event.update', { id: args.id, reminder_minutes: null }, ctx());
    expect(await db.calendar_events.get(args.id)).toMatchObject({ reminder_minutes: null });
    await expectRefused(
      () => mutate(db, 'event.create', event({ reminder_minutes: 7 as never }), ctx()),
      'invalid',
      'Choose a reminder from the list.',
    );
    await expectRefused(
      () => mutate(db, 'event.update', { id: args.id, reminder_minutes: '5' as never }, ctx()),
      'invalid',
    );
    const queued = await db.outbox.orderBy('seq').toArray();
    expect(queued[0]?.args).toMatchObject({ reminder_minutes: 15 });
  });

  it('gives every occurrence of a series the reminder, and a detached one its own', async () => {
    const occurrences = [16, 17, 18].map((day) => ({
      id: uuid(),
      title: 'Gym',
      description: null,
      starts_at: `2026-03-${day}T07:00:00Z`,
      ends_at: `2026-03-${day}T08:00:00Z`,
    }));
    const first = uuid();
    const series = { series_id: first, rule: 'daily' as const, until: '2026-03-18T23:59:00Z', occurrences };
    await mutate(db, 'series.create', { ...series, reminder_minutes: 30 }, pro);
    const rows = await db.calendar_events.where('series_id').equals(first).toArray();
    expect(rows.map((row) => row.reminder_minutes)).toEqual([30, 30, 30]);
    await mutate(db, 'occurrence.detach', { id: occurrences[0]!.id, reminder_minutes: 0 }, pro);
    expect(await db.calendar_events.get(occurrences[0]!.id)).toMatchObject({ series_id: null, reminder_minutes: 0 });
    const second = uuid();
    const replacement = occurrences.slice(1).map((occurrence) => ({ ...occurrence, id: uuid() }));
    await mutate(
      db,
      'series.replace',
      { ...series, old_series_id: first, series_id: second, occurrences: replacement, reminder_minutes: 60 },
      pro,
    );
    const replaced = await db.calendar_events.where('series_id').equals(second).toArray();
    expect(replaced.map((row) => row.reminder_minutes)).toEqual([60, 60]);
    await expectRefused(
      () => mutate(db, 'series.create', { ...series, series_id: uuid(), reminder_minutes: 2 as never }, pro),
      'invalid',
    );
  });

  it("sets and clears the profile's default reminder", async () => {
    await db.user_profiles.put(makeProfile());
    await mutate(db, 'profile.update', { default_reminder_minutes: 15 }, ctx());
    expect(await db.user_profiles.get(ME)).toMatchObject({ default_reminder_minutes: 15, username: 'me' });
    await mutate(db, 'profile.update', { default_reminder_minutes: null }, ctx());
    expect(await db.user_profiles.get(ME)).toMatchObject({ default_reminder_minutes: null });
    await expectRefused(
      () => mutate(db, 'profile.update', { default_reminder_minutes: 45 as never }, ctx()),
      'invalid',
      'Choose a reminder from the list.',
    );
  });

  it("sets the profile's theme, and refuses one that is not light, dark or system", async () => {
    await db.user_profiles.put(makeProfile());
    await mutate(db, 'profile.update', { theme: 'dark' }, ctx());
    expect(await db.user_profiles.get(ME)).toMatchObject({ theme: 'dark', username: 'me' });
    await expectRefused(() => mutate(db, 'profile.update', { theme: 'purple' as never }, ctx()), 'invalid');
    expect(await db.user_profiles.get(ME)).toMatchObject({ theme: 'dark' });
  });
});

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

describe('all-day items', () => {
  // 27 Nov in UTC (the context's zone), as the dialog stores it: midnight to the next midnight.
  const day = (extra: Record<string, unknown> = {}) => ({
    id: uuid(),
    title: 'Offsite',
    starts_at: '2026-11-27T00:00:00.000Z',
    ends_at: '2026-11-28T00:00:00.000Z',
    is_task: false,
    all_day: true,
    ...extra,
  });

  it('stores all_day on create, update and detach, and on every occurrence of a series', async () => {
    const event = day();
    await mutate(db, 'event.create', event, pro);
    expect(await db.calendar_events.get(event.id)).toMatchObject({ all_day: true });
    await mutate(db, 'event.update', { id: event.id, all_day: false, ends_at: '2026-11-27T01:00:00.000Z' }, pro);
    expect(await db.calendar_events.get(event.id)).toMatchObject({ all_day: false });
    const plain = day({ all_day: undefined });
    await mutate(db, 'event.create', plain, pro);
    expect(await db.calendar_events.get(plain.id)).toMatchObject({ all_day: false });
    const series = uuid();
    const occurrences = [day(), day({ starts_at: '2026-12-04T00:00:00.000Z', ends_at: '2026-12-05T00:00:00.000Z' })];
    const strip = ({ id, title, starts_at, ends_at }: ReturnType<typeof day>) => ({
      id,
      title,
      description: null,
      starts_at,
      ends_at,
    });
    await mutate(
      db,
      'series.create',
      {
        series_id: series,
        rule: 'weekly',
        until: '2026-12-04T23:59:00.000Z',
        occurrences: occurrences.map(strip),
        all_day: true,
      },
      pro,
    );
    expect((await db.calendar_events.where('series_id').equals(series).toArray()).map((r) => r.all_day)).toEqual([
      true,
      true,
    ]);
    await mutate(db, 'occurrence.detach', { id: occurrences[0]!.id, all_day: false }, pro);
    expect(await db.calendar_events.get(occurrences[0]!.id)).toMatchObject({ all_day: false, series_id: null });
  });

  it('refuses an all-day item without a date, or an all-day event that does not end after its start', async () => {
    await expectRefused(
      () => mutate(db, 'event.create', day({ is_task: true, starts_at: null, ends_at: null }), pro),
      'invalid',
      'An all-day item needs a date.',
    );
    await expectRefused(
      () => mutate(db, 'event.create', day({ ends_at: '2026-11-27T00:00:00.000Z' }), pro),
      'invalid',
      'The end cannot be before the start.',
    );
    await expectRefused(() => mutate(db, 'event.create', day({ all_day: 'yes' as never }), pro), 'invalid');
  });
});
