import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb, insertRow } from '../support/db.ts';
import { count, makeDirectory, mutation, push, uuid } from './sync.ts';

function occurrences(n: number, title = 'Gym') {
  return Array.from({ length: n }, (_, i) => ({
    id: uuid(),
    title,
    description: null,
    starts_at: new Date(Date.UTC(2031, 0, 1 + i, 7)).toISOString(),
    ends_at: new Date(Date.UTC(2031, 0, 1 + i, 8)).toISOString(),
  }));
}

describe.each(dbKinds)('sync_push calendar and polls (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('creates, updates, completes and deletes events and tasks', async () => {
    const user = await createUser(db);
    const event = uuid();
    const task = uuid();
    const results = await push(
      db,
      user,
      mutation('event.create', {
        id: event,
        title: 'Dentist',
        starts_at: '2031-02-01T10:00:00Z',
        ends_at: '2031-02-01T11:00:00Z',
        is_task: false,
      }),
      mutation('event.create', { id: task, title: 'Pay rent', is_task: true, priority: 'high' }),
      mutation('task.set_completed', { id: task, value: true }),
      mutation('event.update', {
        id: event,
        title: 'Dentist (moved)',
        starts_at: '2031-02-02T10:00:00Z',
        ends_at: '2031-02-02T11:00:00Z',
      }),
      mutation('event.delete', { id: event }),
      mutation('event.delete', { id: event }),
    );
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied', 'applied', 'applied']);
    expect(results[2]!.rows.calendar_events![0]).toMatchObject({ id: task, is_completed: true, priority: 'high' });
    expect(results[3]!.rows.calendar_events![0]).toMatchObject({ title: 'Dentist (moved)' });
    expect(results[4]!.deleted.calendar_events).toEqual([event]);
    const [missing] = await push(db, user, mutation('task.set_completed', { id: uuid(), value: true }));
    expect(missing).toMatchObject({
      status: 'rejected',
      code: 'not_found',
      message: 'Failed to update task. Please try again.',
    });
  });

  it('creates, replaces and deletes a series; detaches an occurrence', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const series = uuid();
    const first = occurrences(3);
    const [created] = await push(
      db,
      user,
      mutation('series.create', {
        series_id: series,
        rule: 'daily',
        until: '2031-01-03T23:00:00Z',
        occurrences: first,
      }),
    );
    expect(created!.status).toBe('applied');
    expect(created!.rows.calendar_events).toHaveLength(3);
    for (const row of created!.rows.calendar_events!) {
      expect(row).toMatchObject({ series_id: series, recurrence_rule: 'daily', owner_id: user.id });
      expect(row.recurrence_end_date).not.toBeNull();
    }

    const [detached] = await push(db, user, mutation('occurrence.detach', { id: first[0]!.id, title: 'Gym (late)' }));
    expect(detached!.rows.calendar_events![0]).toMatchObject({
      series_id: null,
      recurrence_rule: 'none',
      recurrence_end_date: null,
      title: 'Gym (late)',
    });

    const series2 = uuid();
    const second = occurrences(5, 'Swim');
    const [replaced] = await push(
      db,
      user,
      mutation('series.replace', {
        old_series_id: series,
        series_id: series2,
        rule: 'weekly',
        until: '2031-02-01T00:00:00Z',
        occurrences: second,
      }),
    );
    expect(replaced!.status).toBe('applied');
    expect(replaced!.deleted.calendar_events!.sort()).toEqual([first[1]!.id, first[2]!.id].sort());
    expect(replaced!.rows.calendar_events!.map((r) => r.id).sort()).toEqual(second.map((o) => o.id).sort());
    expect(await count(db, 'calendar_events', 'series_id = $1 and deleted_at is null', [series])).toBe(0);
    expect(await count(db, 'calendar_events', 'id = $1 and deleted_at is null', [first[0]!.id])).toBe(1);

    const [deleted] = await push(db, user, mutation('series.delete', { series_id: series2 }));
    expect(deleted!.status).toBe('applied');
    expect(deleted!.deleted.calendar_events).toHaveLength(5);
    expect(await count(db, 'calendar_events', 'series_id = $1 and deleted_at is null', [series2])).toBe(0);
  });

  it('bounds a series at 1,000 occurrences and keeps recurrence for paid plans', async () => {
    const pro = await createUser(db, { tier: 'pro' });
    const [big] = await push(
      db,
      pro,
      mutation('series.create', {
        series_id: uuid(),
        rule: 'daily',
        until: '2040-01-01T00:00:00Z',
        occurrences: occurrences(1001),
      }),
    );
    expect(big).toMatchObject({
      status: 'rejected',
      code: 'invalid',
      message: 'A series can have at most 1,000 occurrences.',
    });
    expect(await count(db, 'calendar_events', 'owner_id = $1', [pro.id])).toBe(0);
    const [full] = await push(
      db,
      pro,
      mutation('series.create', {
        series_id: uuid(),
        rule: 'daily',
        until: '2040-01-01T00:00:00Z',
        occurrences: occurrences(1000),
      }),
    );
    expect(full!.status).toBe('applied');
    expect(await count(db, 'calendar_events', 'owner_id = $1', [pro.id])).toBe(1000);
    const free = await createUser(db);
    const [refused] = await push(
      db,
      free,
      mutation('series.create', {
        series_id: uuid(),
        rule: 'daily',
        until: '2031-01-03T00:00:00Z',
        occurrences: occurrences(2),
      }),
    );
    expect(refused).toMatchObject({
      status: 'rejected',
      code: 'limit_reached',
      message: 'Recurring events are a Pro feature.',
    });
  });

  it('creates polls from option texts and validates them', async () => {
    const user = await createUser(db);
    const id = uuid();
    const [poll] = await push(
      db,
      user,
      mutation('poll.create', { id, title: 'Lunch?', options: [' Pizza ', 'Sushi'] }),
    );
    expect(poll!.rows.voting_posts![0]).toMatchObject({
      id,
      options: [
        { text: 'Pizza', votes: 0 },
        { text: 'Sushi', votes: 0 },
      ],
      created_by_id: user.id,
      directory_id: null,
    });
    for (const options of [['One'], ['One', '  '], ['1', '2', '3', '4', '5', '6', '7'], 'nope']) {
      const [bad] = await push(db, user, mutation('poll.create', { id: uuid(), title: 'Bad', options }));
      expect(bad).toMatchObject({
        status: 'rejected',
        code: 'invalid',
        message: 'Please provide at least 2 voting options',
      });
    }
  });

  it('counts votes, refuses a second vote and a closed poll', async () => {
    const author = await createUser(db);
    const voters = [await createUser(db), await createUser(db), await createUser(db)];
    const post = uuid();
    await push(db, author, mutation('poll.create', { id: post, title: 'Tabs or spaces', options: ['Tabs', 'Spaces'] }));
    for (const [i, voter] of voters.entries()) {
      const [vote] = await push(
        db,
        voter,
        mutation('poll.vote', { id: uuid(), post_id: post, option_index: i === 0 ? 0 : 1 }),
      );
      expect(vote!.status).toBe('applied');
      expect(vote!.rows.user_votes![0]).toMatchObject({ post_id: post, user_id: voter.id });
    }
    const [again] = await push(db, voters[0]!, mutation('poll.vote', { id: uuid(), post_id: post, option_index: 1 }));
    expect(again).toMatchObject({ status: 'rejected', code: 'already_voted' });
    expect(again!.rows.voting_posts![0]!.options).toEqual([
      { text: 'Tabs', votes: 1 },
      { text: 'Spaces', votes: 2 },
    ]);
    expect(await count(db, 'user_votes', 'post_id = $1', [post])).toBe(3);

    const closed = await insertRow<{ id: string }>(db, 'voting_posts', {
      title: 'Closed',
      options: JSON.stringify([{ text: 'a' }, { text: 'b' }]),
      created_by_id: author.id,
      is_active: false,
    });
    const [late] = await push(
      db,
      voters[1]!,
      mutation('poll.vote', { id: uuid(), post_id: closed.id, option_index: 0 }),
    );
    expect(late).toMatchObject({ status: 'rejected', code: 'poll_closed', message: 'This poll is closed.' });
    const { rows } = await db.query<{ options: { votes: number }[]; n: number }>(
      `select p.options, (select count(*)::int from public.user_votes v where v.post_id = p.id) as n
       from public.voting_posts p where p.id = any($1)`,
      [[post, closed.id]],
    );
    for (const row of rows) expect(row.options.reduce((sum, o) => sum + o.votes, 0)).toBe(row.n);
  });

  it('keeps team polls to the Team plan', async () => {
    const team = await createUser(db, { tier: 'team' });
    const dir = await makeDirectory(db, team);
    const [ok] = await push(
      db,
      team,
      mutation('poll.create', { id: uuid(), title: 'Team', options: ['a', 'b'], directory_id: dir.id }),
    );
    expect(ok!.status).toBe('applied');
    const pro = await createUser(db, { tier: 'pro' });
    const proDir = await makeDirectory(db, pro);
    const [no] = await push(
      db,
      pro,
      mutation('poll.create', { id: uuid(), title: 'Team', options: ['a', 'b'], directory_id: proDir.id }),
    );
    expect(no).toMatchObject({ status: 'rejected', code: 'limit_reached' });
  });
});
