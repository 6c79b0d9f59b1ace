/**
 * Deleting an account (auth.users, as the dashboard or admin API does) removes everything the
 * user owns and keeps what they made in other people's directories, whoever is deleted first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb, type Actor } from '../support/db.ts';
import { count, makeDirectory, mutation, push, uuid } from '../sync-server/sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;

describe.each(dbKinds)('account deletion (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  /** An owner's directory with a link by the owner, an editor who added one, and a viewer. */
  async function sharedDirectory() {
    const owner = await createUser(db, { tier: 'pro' });
    const editor = await createUser(db);
    const viewer = await createUser(db);
    const dir = await makeDirectory(db, owner);
    const results = [
      ...(await push(
        db,
        owner,
        mutation('member.invite', { id: uuid(), directory_id: dir.id, user_email: editor.email, role: 'editor' }),
        mutation('member.invite', { id: uuid(), directory_id: dir.id, user_email: viewer.email, role: 'viewer' }),
        mutation('link.create', { id: uuid(), directory_id: dir.id, url: 'https://owner.example', title: 'O' }),
      )),
      ...(await push(
        db,
        editor,
        mutation('link.create', { id: uuid(), directory_id: dir.id, url: 'https://editor.example', title: 'E' }),
      )),
    ];
    expect(results.map((result) => result.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    return { owner, editor, viewer, dirId: dir.id };
  }

  const deleteAccount = (user: User) => db.query('delete from auth.users where id = $1', [user.id]);

  it("removes an owner's directory, its links and its members", async () => {
    const { owner, dirId } = await sharedDirectory();
    await deleteAccount(owner);
    expect(await count(db, 'user_profiles', 'id = $1', [owner.id])).toBe(0);
    expect(await count(db, 'link_directories', 'id = $1', [dirId])).toBe(0);
    expect(await count(db, 'saved_links', 'directory_id = $1', [dirId])).toBe(0);
    expect(await count(db, 'directory_members', 'directory_id = $1', [dirId])).toBe(0);
  });

  it("keeps an editor's links in the owner's directory, without their author, then the owner goes too", async () => {
    const { owner, editor, dirId } = await sharedDirectory();
    await deleteAccount(editor);
    const { rows } = await db.query<{ title: string; created_by: string | null }>(
      'select title, created_by from public.saved_links where directory_id = $1 order by title',
      [dirId],
    );
    expect(rows).toEqual([
      { title: 'E', created_by: null },
      { title: 'O', created_by: owner.id },
    ]);
    await deleteAccount(owner);
    expect(await count(db, 'saved_links', 'directory_id = $1', [dirId])).toBe(0);
  });

  it('still refuses moving a link to a directory that does not exist', async () => {
    const { owner, dirId } = await sharedDirectory();
    const error = await db
      .query(`update public.saved_links set directory_id = $2 where directory_id = $1 and created_by = $3`, [
        dirId,
        uuid(),
        owner.id,
      ])
      .then(
        () => null,
        (failure: { code?: string }) => failure.code,
      );
    expect(error).toBe('P0002');
  });
});
