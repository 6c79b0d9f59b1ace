import { beforeEach, describe, expect, it } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { mutators } from '../../src/data/mutators.ts';
import { OUTBOX_VERSION } from '../../src/data/outbox.ts';
import { mutationNames } from '../../src/domain/mutation-contract.ts';
import { NOW, ctx } from './helpers.ts';
import { db, expectRefused, freshMutatorDb, pro } from './mutator-setup.ts';
import { ME, OTHER, makeDirectory, makeLink, makeMember, makePoll, uuid } from '../support/builders.ts';

beforeEach(freshMutatorDb);

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
