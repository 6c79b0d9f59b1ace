import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, insertRow, sqlError } from '../support/db.ts';
import { actAs, openClient } from '../support/pg-clients.ts';
import { count, makeDirectory, makeLinks, mutation, push, pushRaw, uuid } from './sync.ts';

describe.each(dbKinds)('sync_push (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('applies a batch in order and answers with the canonical rows', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dirId = uuid();
    const linkId = uuid();
    const results = await push(
      db,
      user,
      mutation('directory.create', { id: dirId, name: '  Reading  ', color: 'green' }),
      mutation('link.create', {
        id: linkId,
        directory_id: dirId,
        url: 'https://a.example',
        title: 'A',
        tags: ['x', ' x', 'y'],
      }),
      mutation('link.update', { id: linkId, title: 'A2' }),
      mutation('link.set_favorite', { id: linkId, value: true }),
    );
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    expect(results[0]!.rows.link_directories![0]).toMatchObject({ id: dirId, name: 'Reading', owner_id: user.id });
    const link = results[3]!.rows.saved_links![0]!;
    expect(link).toMatchObject({ id: linkId, title: 'A2', tags: ['x', 'y'], is_favorite: true, owner_id: user.id });
    expect(typeof link.txid).toBe('string');
    expect(results[3]!.deleted).toEqual({ saved_links: [] });

    const del = await push(db, user, mutation('link.delete', { id: linkId }));
    expect(del[0]).toMatchObject({ status: 'applied', rows: { saved_links: [] }, deleted: { saved_links: [linkId] } });
    const { rows } = await db.query<{ deleted_at: unknown }>(
      'select deleted_at from public.saved_links where id = $1',
      [linkId],
    );
    expect(rows[0]!.deleted_at).not.toBeNull();
  });

  it('answers a replay with the first answer and changes nothing', async () => {
    const user = await createUser(db);
    const dirId = uuid();
    const create = mutation('directory.create', { id: dirId, name: 'Once' });
    const first = await push(db, user, create);
    const before = await count(db, 'link_directories', 'owner_id = $1', [user.id]);
    const replay = await push(db, user, create);
    expect(replay).toEqual(first);
    expect(await count(db, 'link_directories', 'owner_id = $1', [user.id])).toBe(before);
    // A rejected answer is recorded too: the second create (Free: 1 directory) stays rejected.
    const second = mutation('directory.create', { id: uuid(), name: 'Two' });
    const rejected = await push(db, user, second);
    expect(rejected[0]).toMatchObject({
      status: 'rejected',
      code: 'limit_reached',
      message: 'Upgrade to Pro to create more directories.',
    });
    await push(db, user, mutation('directory.delete', { id: dirId }));
    expect(await push(db, user, second)).toEqual(rejected);
    expect(await count(db, 'link_directories', 'owner_id = $1 and deleted_at is null', [user.id])).toBe(0);
    expect(await count(db, 'sync_mutations', 'user_id = $1', [user.id])).toBe(3);
  });

  it('applies the others when one mutation in the middle fails, and never half-applies it', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    const oldSeries = uuid();
    const oldIds = [uuid(), uuid()];
    await push(
      db,
      user,
      mutation('series.create', {
        series_id: oldSeries,
        rule: 'daily',
        until: '2030-01-03T00:00:00Z',
        occurrences: oldIds.map((id, i) => ({ id, title: 'Standup', starts_at: `2030-01-0${i + 1}T09:00:00Z` })),
      }),
    );
    const a = uuid();
    const c = uuid();
    const results = await push(
      db,
      user,
      mutation('link.create', { id: a, directory_id: dir.id, url: 'https://a.example', title: 'A' }),
      // The replacement's second occurrence ends before it starts: the whole replace must roll back.
      mutation('series.replace', {
        old_series_id: oldSeries,
        series_id: uuid(),
        rule: 'daily',
        until: '2030-01-03T00:00:00Z',
        occurrences: [
          { id: uuid(), title: 'New', starts_at: '2030-01-01T10:00:00Z' },
          { id: uuid(), title: 'New', starts_at: '2030-01-02T10:00:00Z', ends_at: '2030-01-01T10:00:00Z' },
        ],
      }),
      mutation('link.create', { id: c, directory_id: dir.id, url: 'https://c.example', title: 'C' }),
    );
    expect(results.map((r) => r.status)).toEqual(['applied', 'rejected', 'applied']);
    expect(results[1]).toMatchObject({ code: 'invalid', message: 'Failed to save event/task. Please try again.' });
    expect(results[1]!.rows.calendar_events!.map((row) => row.id).sort()).toEqual([...oldIds].sort());
    expect(await count(db, 'calendar_events', 'owner_id = $1 and deleted_at is null', [user.id])).toBe(2);
    expect(await count(db, 'calendar_events', 'owner_id = $1', [user.id])).toBe(2);
    expect(await count(db, 'saved_links', 'id = any($1)', [[a, c]])).toBe(2);
  });

  it('rejects the 31st Free link with the product wording and the id in deleted', async () => {
    const user = await createUser(db);
    const dir = await makeDirectory(db, user);
    await makeLinks(db, dir.id as string, 30);
    const id = uuid();
    const [result] = await push(
      db,
      user,
      mutation('link.create', { id, directory_id: dir.id, url: 'https://x.example', title: 'X' }),
    );
    expect(result).toEqual({
      id: result!.id,
      status: 'rejected',
      code: 'limit_reached',
      message: 'Upgrade to Pro to save more links.',
      rows: { saved_links: [] },
      deleted: { saved_links: [id] },
    });
    expect(await count(db, 'saved_links', 'owner_id = $1', [user.id])).toBe(30);
  });

  it('lets an editor add links and refuses a viewer', async () => {
    const owner = await createUser(db, { tier: 'team' });
    const editor = await createUser(db);
    const viewer = await createUser(db);
    const dir = await makeDirectory(db, owner);
    await insertRow(db, 'directory_members', { directory_id: dir.id, user_email: editor.email, role: 'editor' });
    const [invite] = await push(
      db,
      owner,
      mutation('member.invite', { id: uuid(), directory_id: dir.id, user_email: viewer.email, role: 'viewer' }),
    );
    expect(invite!.status).toBe('applied');
    const link = { directory_id: dir.id, url: 'https://team.example', title: 'T' };
    const [byViewer] = await push(db, viewer, mutation('link.create', { id: uuid(), ...link }));
    expect(byViewer).toMatchObject({
      status: 'rejected',
      code: 'forbidden',
      message: 'Failed to save link. Please try again.',
    });
    const id = uuid();
    const [byEditor] = await push(db, editor, mutation('link.create', { id, ...link }));
    expect(byEditor!.status).toBe('applied');
    const [viewerEdit] = await push(db, viewer, mutation('link.update', { id, title: 'Mine' }));
    expect(viewerEdit).toMatchObject({ status: 'rejected', code: 'forbidden' });
    expect(viewerEdit!.rows.saved_links![0]).toMatchObject({ id, title: 'T' });
    const [viewerRole] = await push(
      db,
      viewer,
      mutation('member.set_role', { id: invite!.rows.directory_members![0]!.id, role: 'editor' }),
    );
    expect(viewerRole).toMatchObject({ status: 'rejected', code: 'forbidden' });
    const stranger = await createUser(db);
    const [hidden] = await push(db, stranger, mutation('link.update', { id, title: 'Hi' }));
    expect(hidden).toMatchObject({ status: 'rejected', code: 'not_found', deleted: { saved_links: [id] } });
  });

  it('answers a taken username with conflict and the profile wording', async () => {
    await createUser(db, { username: 'takenname' });
    const user = await createUser(db, { username: 'freename' });
    const [result] = await push(db, user, mutation('profile.update', { username: 'TakenName', bio: 'hi' }));
    expect(result).toMatchObject({
      status: 'rejected',
      code: 'conflict',
      message: 'Failed to save profile. Your username might be taken.',
    });
    expect(result!.rows.user_profiles![0]).toMatchObject({ id: user.id, username: 'freename', bio: '' });
    const [ok] = await push(db, user, mutation('profile.update', { bio: 'hello', time_zone: 'Europe/Paris' }));
    expect(ok!.rows.user_profiles![0]).toMatchObject({ username: 'freename', bio: 'hello', time_zone: 'Europe/Paris' });
  });

  it('clears a directory password when is_public goes false', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const id = uuid();
    const [created] = await push(
      db,
      user,
      mutation('directory.create', { id, name: 'Secret', is_public: true, password: 'pw' }),
    );
    expect(created!.rows.link_directories![0]).toMatchObject({ is_public: true, has_password: true });
    expect(created!.rows.link_directories![0]).not.toHaveProperty('password');
    const [updated] = await push(db, user, mutation('directory.update', { id, is_public: false }));
    expect(updated!.rows.link_directories![0]).toMatchObject({ is_public: false, has_password: false });
    expect(await count(db, 'directory_secrets', 'directory_id = $1', [id])).toBe(0);
  });

  it('rejects malformed items one by one, never the whole batch', async () => {
    const user = await createUser(db);
    const good = uuid();
    const results = await pushRaw(db, user, [
      { id: 'not-a-uuid', name: 'link.create', args: {} },
      mutation('no.such', {}),
      mutation('event.create', { id: good, title: 'Task', is_task: true }),
      mutation('link.update', { id: 42 }),
      'junk',
    ]);
    expect(results.map((r) => [r.status, r.code])).toEqual([
      ['rejected', 'invalid'],
      ['rejected', 'invalid'],
      ['applied', undefined],
      ['rejected', 'invalid'],
      ['rejected', 'invalid'],
    ]);
    expect(results[0]!.id).toBe('not-a-uuid');
    const tooMany = Array.from({ length: 501 }, () => mutation('no.such', {}));
    expect((await sqlError(pushRaw(db, user, tooMany))).code).toBe('PT413');
    expect((await sqlError(pushRaw(db, user, { not: 'an array' }))).code).toBe('22023');
  });

  it('refuses an anonymous caller', async () => {
    const error = await sqlError(as(db, anonymous, (sql) => sql.query(`select public.sync_push('[]'::jsonb)`)));
    expect(error.code).toBe('42501');
    const noUser = await sqlError(
      as(db, { role: 'authenticated' }, (sql) => sql.query(`select public.sync_push('[]'::jsonb)`)),
    );
    expect(noUser.code).toBe('42501');
  });

  it('keeps sync_mutations away from client roles', async () => {
    const user = await createUser(db);
    const error = await sqlError(as(db, user, (sql) => sql.query('select * from public.sync_mutations')));
    expect(error.code).toBe('42501');
  });
  it.runIf(kind === 'postgres')('answers a concurrent replay of the same mutation with the first answer', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    const linkId = uuid();
    const create = mutation('link.create', {
      id: linkId,
      directory_id: dir.id,
      url: 'https://once.example',
      title: 'Once',
    });
    const t1 = await openClient(db);
    try {
      await t1.query('begin');
      await actAs(t1, user);
      const { rows } = await t1.query('select public.sync_push($1::jsonb) as r', [JSON.stringify([create])]);
      expect(rows[0].r.results[0].status).toBe('applied');
      // The same mutation from another session waits for the first, then answers with its answer.
      const second = push(db, user, create);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await t1.query('commit');
      expect(await second).toEqual(rows[0].r.results);
    } finally {
      await t1.end();
    }
    expect(await count(db, 'saved_links', 'id = $1', [linkId])).toBe(1);
    expect(await count(db, 'sync_mutations', 'mutation_id = $1', [create.id])).toBe(1);
  });
});
