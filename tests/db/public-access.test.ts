import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, insertRow, sqlError, type Actor } from '../support/db.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;
const stamp = Date.now().toString(36);

describe.each(dbKinds)('public directories and profiles (%s)', (kind) => {
  let db: Db;
  let owner: User;
  let publicDir: Row;
  let privateDir: Row;
  let lockedDir: Row;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db, { tier: 'pro', username: `olive${stamp}` });
    publicDir = await insertRow<Row>(db, 'link_directories', { name: 'Open', owner_id: owner.id, is_public: true });
    privateDir = await insertRow<Row>(db, 'link_directories', { name: 'Closed', owner_id: owner.id });
    lockedDir = await insertRow<Row>(db, 'link_directories', { name: 'Locked', owner_id: owner.id });
    for (let i = 1; i <= 4; i++) {
      await insertRow(db, 'saved_links', { directory_id: publicDir.id, url: `https://p${i}.example`, title: `P${i}` });
    }
    await insertRow(db, 'saved_links', { directory_id: lockedDir.id, url: 'https://secret.example', title: 'S' });
    await as(db, owner, (sql) => sql.query("select private.set_directory_password($1, 'hunter2')", [lockedDir.id]));
  });
  afterAll(() => db.close());

  const getDirectory = (id: string, password: string | null = null, actor: Actor = anonymous) =>
    as(db, actor, async (sql) => {
      const { rows } = await sql.query<{ value: { directory: { name: string }; links: unknown[] } }>(
        'select public.get_public_directory($1, $2) as value',
        [id, password],
      );
      return rows[0]!.value;
    });

  it('gives a visitor a public directory with its links', async () => {
    const result = await getDirectory(publicDir.id);
    expect(result.directory.name).toBe('Open');
    expect(result.links).toHaveLength(4);
  });

  it('refuses a private directory to a visitor, but not to its owner', async () => {
    expect(await sqlError(getDirectory(privateDir.id))).toEqual({
      code: 'PT404',
      message: 'This directory is not available',
      hint: 'not_found',
    });
    expect((await getDirectory(privateDir.id, null, owner)).directory.name).toBe('Closed');
  });

  it('asks for the password of a protected directory and checks it', async () => {
    expect((await sqlError(getDirectory(lockedDir.id))).hint).toBe('password_required');
    // A wrong password is answered, not raised (the attempt must be kept): PostgREST's error body
    // with response.status 403.
    const wrong = await as(db, anonymous, async (sql) => {
      const { rows } = await sql.query<{ value: unknown; status: string }>(
        "select public.get_public_directory($1, 'wrong') as value, current_setting('response.status', true) as status",
        [lockedDir.id],
      );
      return rows[0];
    });
    expect(wrong).toEqual({
      value: { code: '42501', message: 'Wrong password.', details: null, hint: 'forbidden' },
      status: '403',
    });
    expect((await getDirectory(lockedDir.id, 'hunter2')).links).toHaveLength(1);
  });

  it('stores only a bcrypt hash, and marks the directory', async () => {
    const { rows } = await db.query<{ password_hash: string; has_password: boolean; is_public: boolean }>(
      `select s.password_hash, d.has_password, d.is_public from public.directory_secrets s
       join public.link_directories d on d.id = s.directory_id where s.directory_id = $1`,
      [lockedDir.id],
    );
    expect(rows[0]?.password_hash).toMatch(/^\$2[aby]\$/);
    expect(rows[0]).toMatchObject({ has_password: true, is_public: true });
  });

  it('refuses a password to Free owners and to non-owners', async () => {
    const free = await createUser(db);
    const dir = await insertRow<Row>(db, 'link_directories', { name: 'F', owner_id: free.id, is_public: true });
    const set = (actor: Actor, id: string) =>
      sqlError(as(db, actor, (sql) => sql.query("select private.set_directory_password($1, 'pw')", [id])));
    expect(await set(free, dir.id)).toEqual({
      code: 'P0001',
      message: 'Upgrade to Pro to protect directories with a password.',
      hint: 'limit_reached',
    });
    expect((await set(free, publicDir.id)).hint).toBe('not_found');
    expect((await set(anonymous, publicDir.id)).code).toBe('42501');
  });

  it('turning public off clears the password', async () => {
    const dir = await insertRow<Row>(db, 'link_directories', { name: 'Tmp', owner_id: owner.id });
    await as(db, owner, (sql) => sql.query("select private.set_directory_password($1, 'pw')", [dir.id]));
    await as(db, owner, (sql) =>
      sql.query('update public.link_directories set is_public = false where id = $1', [dir.id]),
    );
    const { rows } = await db.query<{ has_password: boolean; secrets: string }>(
      `select has_password, (select count(*) from public.directory_secrets where directory_id = $1) as secrets
       from public.link_directories where id = $1`,
      [dir.id],
    );
    expect({ ...rows[0], secrets: Number(rows[0]?.secrets) }).toEqual({ has_password: false, secrets: 0 });
  });

  it('get_public_profile: public directories with their first 3 links; null for an unknown user', async () => {
    const result = await as(db, anonymous, async (sql) => {
      const { rows } = await sql.query<{ value: unknown }>('select public.get_public_profile($1) as value', [
        `OLIVE${stamp}`,
      ]);
      return rows[0]!.value as {
        profile: { username: string; subscription_tier: string };
        directories: { name: string; link_count: number; links: { title: string }[] }[];
      };
    });
    expect(result.profile).toMatchObject({ username: `olive${stamp}`, subscription_tier: 'pro' });
    expect(result.directories.map((d) => d.name)).toEqual(['Open', 'Locked']);
    expect(result.directories[0]).toMatchObject({ link_count: 4 });
    expect(result.directories[0]?.links.map((l) => l.title)).toEqual(['P1', 'P2', 'P3']);
    expect(result.directories[1]?.links).toEqual([]);
    const none = await as(
      db,
      anonymous,
      async (sql) =>
        (await sql.query<{ value: unknown }>("select public.get_public_profile('nobody-here') as value")).rows[0]!
          .value,
    );
    expect(none).toBeNull();
  });
});
