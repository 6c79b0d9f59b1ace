/**
 * sync_push in a shared directory, as a matrix of who asks (owner, editor, viewer, stranger) and
 * what (directory and member mutations); nothing but the owner's own asks may change anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb, type Actor } from '../support/db.ts';
import { count, makeDirectory, makeLinks, mutation, push, uuid, type Row } from './sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;

describe.each(dbKinds)('sync_push in a shared directory (%s)', (kind) => {
  let db: Db;
  let owner: User;
  let editor: User;
  let viewer: User;
  let stranger: User;
  let dir: Row;
  let members: { editor: string; viewer: string };

  beforeAll(async () => {
    db = await freshDb(kind);
    [owner, editor, viewer, stranger] = await Promise.all([
      createUser(db, { tier: 'pro' }),
      createUser(db),
      createUser(db),
      createUser(db, { tier: 'pro' }),
    ]);
    dir = await makeDirectory(db, owner, 'Shared');
    await makeLinks(db, dir.id, 2);
    members = { editor: uuid(), viewer: uuid() };
    const invited = await push(
      db,
      owner,
      mutation('member.invite', { id: members.editor, directory_id: dir.id, user_email: editor.email, role: 'editor' }),
      mutation('member.invite', { id: members.viewer, directory_id: dir.id, user_email: viewer.email, role: 'viewer' }),
    );
    expect(invited.map((result) => result.status)).toEqual(['applied', 'applied']);
  });
  afterAll(() => db.close());

  const snapshot = async () => {
    const { rows } = await db.query(
      `select jsonb_build_object(
         'dir', (select to_jsonb(d) - 'txid' from public.link_directories d where d.id = $1),
         'links', (select jsonb_agg(to_jsonb(l) - 'txid' order by l.id) from public.saved_links l where l.directory_id = $1),
         'members', (select jsonb_agg(to_jsonb(m) - 'txid' order by m.id) from public.directory_members m
                     where m.directory_id = $1)) as s`,
      [dir.id],
    );
    return rows[0];
  };

  const asks = () => ({
    'directory.update': mutation('directory.update', { id: dir.id, name: 'Mine now' }),
    'directory.update public': mutation('directory.update', { id: dir.id, is_public: true, password: 'secret-1' }),
    'member.invite': mutation('member.invite', {
      id: uuid(),
      directory_id: dir.id,
      user_email: 'someone@example.com',
      role: 'viewer',
    }),
    'member.set_role': mutation('member.set_role', { id: members.viewer, role: 'editor' }),
    'member.remove': mutation('member.remove', { id: members.editor }),
    // Last: the owner's control applies them in order, and a deleted directory takes its members.
    'directory.delete': mutation('directory.delete', { id: dir.id }),
  });

  it('refuses every directory and member mutation of a non-owner, and changes nothing', async () => {
    const before = await snapshot();
    const codes: Record<string, Record<string, string | undefined>> = {};
    for (const [who, actor] of Object.entries({ editor, viewer, stranger })) {
      codes[who] = {};
      for (const [what, ask] of Object.entries(asks())) {
        const [result] = await push(db, actor, ask);
        codes[who][what] = result!.status === 'applied' ? 'applied' : result!.code;
      }
    }
    const member = {
      'directory.update': 'forbidden',
      'directory.update public': 'forbidden',
      'member.invite': 'forbidden',
      'member.set_role': 'forbidden',
      'member.remove': 'forbidden',
      'directory.delete': 'forbidden',
    };
    expect(codes).toEqual({
      editor: member,
      viewer: member,
      // A stranger sees nothing: the rows are not found, and an invitation is refused.
      stranger: {
        'directory.update': 'not_found',
        'directory.update public': 'not_found',
        'member.invite': 'forbidden',
        'member.set_role': 'not_found',
        'member.remove': 'not_found',
        'directory.delete': 'not_found',
      },
    });
    expect(await snapshot()).toEqual(before);
  });

  it("answers a member's refused directory.update with the canonical row, a stranger's with deleted", async () => {
    const [byViewer] = await push(db, viewer, mutation('directory.update', { id: dir.id, name: 'Mine now' }));
    expect(byViewer).toMatchObject({
      status: 'rejected',
      code: 'forbidden',
      message: 'Failed to update directory. Please try again.',
      rows: { link_directories: [{ id: dir.id, name: 'Shared', owner_id: owner.id }] },
      deleted: { link_directories: [] },
    });
    const [byStranger] = await push(db, stranger, mutation('directory.update', { id: dir.id, name: 'x' }));
    expect(byStranger).toMatchObject({ rows: { link_directories: [] }, deleted: { link_directories: [dir.id] } });
  });

  it("lets the owner do each of them (the matrix's control)", async () => {
    const results = await push(db, owner, ...Object.values(asks()));
    expect(results.map((result) => result.status)).toEqual(Array(6).fill('applied'));
    const { rows } = await db.query<{ name: string; deleted: boolean; has_password: boolean }>(
      `select name, deleted_at is not null as deleted, has_password from public.link_directories where id = $1`,
      [dir.id],
    );
    expect(rows[0]).toEqual({ name: 'Mine now', deleted: true, has_password: false });
  });
});

describe.each(dbKinds)("a non-owner's insert into a Free owner's full directory (%s)", (kind) => {
  let db: Db;
  let owner: User;
  let viewer: User;
  let stranger: User;
  let dir: Row;

  beforeAll(async () => {
    db = await freshDb(kind);
    [owner, viewer, stranger] = await Promise.all([createUser(db), createUser(db), createUser(db, { tier: 'team' })]);
    dir = await makeDirectory(db, owner, 'Full');
    await makeLinks(db, dir.id, 30);
    const [invited] = await push(
      db,
      owner,
      mutation('member.invite', { id: uuid(), directory_id: dir.id, user_email: viewer.email, role: 'viewer' }),
    );
    expect(invited!.status).toBe('applied');
  });
  afterAll(() => db.close());

  const link = () =>
    mutation('link.create', { id: uuid(), directory_id: dir.id, url: 'https://example.org', title: 'x', tags: ['t'] });
  const editorInvite = () =>
    mutation('member.invite', { id: uuid(), directory_id: dir.id, user_email: 'new@example.com', role: 'editor' });

  it('is refused as forbidden, before the owner’s plan limits are looked at', async () => {
    for (const actor of [viewer, stranger]) {
      const results = await push(db, actor, link(), editorInvite());
      expect(results.map((r) => [r.status, r.code])).toEqual([
        ['rejected', 'forbidden'],
        ['rejected', 'forbidden'],
      ]);
    }
    expect(await count(db, 'saved_links', 'directory_id = $1', [dir.id])).toBe(30);
    expect(await count(db, 'directory_members', 'directory_id = $1', [dir.id])).toBe(1);
  });

  it("still answers the owner's own inserts with the plan's limits (the control)", async () => {
    const results = await push(db, owner, link(), editorInvite());
    expect(results.map((r) => [r.code, r.message])).toEqual([
      ['limit_reached', 'Upgrade to Pro to use tags.'],
      ['limit_reached', 'Upgrade to Pro to assign the Editor role.'],
    ]);
  });

  it('answers an insert into a directory that does not exist with not_found', async () => {
    const [result] = await push(
      db,
      viewer,
      mutation('link.create', { id: uuid(), directory_id: uuid(), url: 'https://example.org', title: 'x' }),
    );
    expect(result!.code).toBe('not_found');
  });
});
