/**
 * In sync_push: a push over the limit is refused whole with 413 before
 * anything is applied; a malformed envelope is a 4xx; a malformed mutation is rejected `invalid`
 * on its own and writes nothing. Point 6: stored answers are purged after 30 days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, sqlError } from '../support/db.ts';
import { count, makeDirectory, mutation, push, pushRaw, snapshot, uuid } from './sync.ts';

describe.each(dbKinds)('sync_push limits (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('refuses more than 500 mutations whole with 413, before applying any', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const events = (n: number) =>
      Array.from({ length: n }, (_, i) => mutation('event.create', { id: uuid(), title: `T${i}`, is_task: true }));
    const error = await sqlError(pushRaw(db, user, events(501)));
    expect(error).toMatchObject({ code: 'PT413', message: 'Too many changes in one push: at most 500.' });
    expect(await count(db, 'calendar_events', 'owner_id = $1', [user.id])).toBe(0);
    expect(await count(db, 'sync_mutations', 'user_id = $1', [user.id])).toBe(0);
    const results = await pushRaw(db, user, events(500));
    expect(results.filter((r) => r.status === 'applied')).toHaveLength(500);
  });

  it('refuses an envelope that is not an array with 22023 (HTTP 400)', async () => {
    const user = await createUser(db);
    for (const value of ['null', '"[]"', '{"0": {}}', '42', 'true']) {
      const error = await sqlError(
        as(db, user, (sql) => sql.query(`select public.sync_push(${value === 'null' ? 'null' : `'${value}'`}::jsonb)`)),
      );
      expect(error.code, value).toBe('22023');
    }
  });

  it('rejects malformed arguments as invalid, with the product wording, writing nothing', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    const link = uuid();
    const event = uuid();
    const poll = uuid();
    const series = uuid();
    const ok = await push(
      db,
      user,
      mutation('link.create', { id: link, directory_id: dir.id, url: 'https://a.example', title: 'A' }),
      mutation('event.create', { id: event, title: 'E', starts_at: '2030-01-01T10:00:00Z', is_task: false }),
      mutation('poll.create', { id: poll, title: 'P', options: ['a', 'b'] }),
      mutation('series.create', {
        series_id: series,
        rule: 'daily',
        until: '2030-01-03T00:00:00Z',
        occurrences: [{ id: uuid(), title: 'S', description: null, starts_at: '2030-01-02T10:00:00Z', ends_at: null }],
      }),
    );
    expect(ok.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    const huge = 'x'.repeat(300_000);
    const malformed: [string, Record<string, unknown>][] = [
      ['profile.update', { bio: { nested: 'object' } }],
      ['profile.update', { username: 12345 }],
      ['profile.update', { time_zone: huge }],
      ['directory.create', { id: uuid(), name: ['list'] }],
      ['directory.create', { id: { id: dir.id }, name: 'N' }],
      ['directory.create', { id: uuid(), name: huge }],
      ['directory.update', { id: dir.id, description: 5 }],
      ['directory.update', { id: dir.id, is_public: 'true' }],
      ['directory.update', { id: dir.id, password: { pw: 1 } }],
      ['link.create', { id: uuid(), directory_id: dir.id, url: 42, title: 'T' }],
      ['link.create', { id: uuid(), directory_id: dir.id, url: 'https://b.example', title: { t: 1 } }],
      ['link.create', { id: uuid(), directory_id: dir.id, url: 'https://b.example', title: 'T', tags: [1, 2] }],
      ['link.create', { id: uuid(), directory_id: dir.id, url: 'https://b.example', title: 'T', tags: 'tag' }],
      ['link.create', { id: uuid(), directory_id: 7, url: 'https://b.example', title: 'T' }],
      ['link.create', { id: uuid(), directory_id: dir.id, url: 'https://b.example', title: huge }],
      ['link.update', { id: link, title: { nested: true } }],
      ['link.update', { id: link, notes: ['a'] }],
      ['link.update', { id: link, tags: [{ t: 1 }] }],
      ['link.set_favorite', { id: link, value: 'yes' }],
      ['link.delete', { id: 'not-a-uuid' }],
      ['member.invite', { id: uuid(), directory_id: dir.id, user_email: 5, role: 'viewer' }],
      ['member.invite', { id: uuid(), directory_id: dir.id, user_email: 'a@example.com', role: { r: 1 } }],
      ['event.create', { id: uuid(), title: 'E', starts_at: 5, is_task: false }],
      ['event.create', { id: uuid(), title: 'E', starts_at: 'not a date', is_task: false }],
      ['event.create', { id: uuid(), title: 'E', is_task: 'no' }],
      ['event.update', { id: event, title: true }],
      ['event.update', { id: event, ends_at: '2030-99-99' }],
      ['task.set_completed', { id: event, value: 1 }],
      ['occurrence.detach', { id: event, description: { d: 1 } }],
      ['series.create', { series_id: uuid(), rule: 'daily', until: '2030-02-01', occurrences: 'none' }],
      ['series.create', { series_id: uuid(), rule: 5, until: '2030-02-01', occurrences: [{ id: uuid(), title: 'S' }] }],
      [
        'series.create',
        { series_id: uuid(), rule: 'daily', until: '2030-02-01', occurrences: [{ id: 1, title: 'S' }] },
      ],
      [
        'series.create',
        { series_id: uuid(), rule: 'daily', until: '2030-02-01', occurrences: [{ id: uuid(), title: { t: 1 } }] },
      ],
      [
        'series.replace',
        {
          old_series_id: series,
          series_id: uuid(),
          rule: 'weekly',
          until: '2030-02-01',
          occurrences: [{ id: uuid(), title: 'S', starts_at: ['2030-01-01'] }],
        },
      ],
      ['series.delete', { series_id: 42 }],
      ['poll.create', { id: uuid(), title: { t: 1 }, options: ['a', 'b'] }],
      ['poll.create', { id: uuid(), title: 'P', options: ['a', 'b'], deadline: 5 }],
      ['poll.create', { id: uuid(), title: 'P', options: ['a', 'b'], directory_id: 'nope' }],
      ['poll.create', { id: uuid(), title: 'P', options: ['a', 'b'.repeat(501)] }],
      ['poll.vote', { id: uuid(), post_id: poll, option_index: '1' }],
      ['poll.vote', { id: uuid(), post_id: poll, option_index: 1e12 }],
      ['poll.vote', { id: uuid(), post_id: poll, option_index: 0.5 }],
    ];
    const before = await snapshot(db);
    const results = await pushRaw(
      db,
      user,
      malformed.map(([name, args]) => mutation(name, args)),
    );
    expect(results.map((r, i) => [malformed[i]![0], i, r.status, r.code])).toEqual(
      malformed.map(([name], i) => [name, i, 'rejected', 'invalid']),
    );
    // The wording of docs/product.md or a rule's own, never the database's (a cast, a constraint's name).
    for (const result of results) {
      expect(result.message).not.toMatch(/syntax|violat|constraint|json|uuid|column|relation|function|argument/i);
      expect(result.message!.length).toBeLessThan(120);
    }
    expect(await snapshot(db)).toEqual(before);
  });

  it('rejects an unknown name or non-object args as invalid and writes nothing', async () => {
    const user = await createUser(db);
    const before = await snapshot(db);
    const results = await pushRaw(db, user, [
      mutation('link.create.extra', {}),
      mutation('x'.repeat(100_000), {}),
      { id: uuid(), name: 'link.delete', args: [] },
      { id: uuid(), name: 'link.delete', args: 'id' },
      { id: uuid(), name: 42, args: {} },
      { id: { nested: true }, name: 'link.delete', args: {} },
      { id: 'x'.repeat(10_000), name: 'link.delete', args: {} },
    ]);
    expect(results.map((r) => [r.status, r.code, r.message])).toEqual(
      Array.from({ length: 7 }, () => ['rejected', 'invalid', expect.any(String)]),
    );
    expect(results[5]!.id).toBeNull();
    expect(results[6]!.id).toBeNull();
    expect(await snapshot(db)).toEqual(before);
  });
});

describe.each(dbKinds)('stored push answers (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const record = (userId: string, mutationId: string, age: string) =>
    db.query(
      `insert into public.sync_mutations (user_id, mutation_id, result, created_at)
       values ($1, $2, '{"status": "rejected", "code": "invalid"}', now() - $3::interval)`,
      [userId, mutationId, age],
    );

  it("purges the caller's answers older than 30 days on their next push; a replay after that applies anew", async () => {
    const user = await createUser(db, { tier: 'pro' });
    const other = await createUser(db);
    const old = mutation('event.create', { id: uuid(), title: 'Old', is_task: true });
    const recent = uuid();
    await record(user.id, old.id, '31 days');
    await record(user.id, recent, '29 days');
    await record(other.id, uuid(), '40 days');

    await push(db, user);
    expect(await count(db, 'sync_mutations', 'user_id = $1', [user.id])).toBe(1);
    expect(await count(db, 'sync_mutations', 'mutation_id = $1', [recent])).toBe(1);
    expect(await count(db, 'sync_mutations', 'user_id = $1', [other.id])).toBe(1);

    // The answer is gone, so the replay is a new mutation (documented in docs/sync-protocol.md).
    const [replay] = await push(db, user, old);
    expect(replay).toMatchObject({ id: old.id, status: 'applied' });
  });

  it('purges every old answer through private.sync_purge_answers(), for the service role only', async () => {
    const user = await createUser(db);
    await record(user.id, uuid(), '45 days');
    await record(user.id, uuid(), '1 day');
    const denied = await sqlError(as(db, user, (sql) => sql.query('select private.sync_purge_answers()')));
    expect(denied.code).toBe('42501');
    const { rows } = await as(db, { role: 'service_role' }, (sql) =>
      sql.query<{ n: number }>('select private.sync_purge_answers() as n'),
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
    expect(await count(db, 'sync_mutations', `created_at < now() - interval '30 days'`)).toBe(0);
    expect(await count(db, 'sync_mutations', 'user_id = $1', [user.id])).toBe(1);
  });
});
