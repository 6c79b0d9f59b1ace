import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import {
  anonymous,
  as,
  createUser,
  dbKinds,
  freshDb,
  insertRow,
  outcome,
  outcomes,
  type Actor,
} from '../support/db.ts';

type Row = { id: string };
const DENIED = 'error 42501';

describe.each(dbKinds)('RLS on directories, members and links (%s)', (kind) => {
  let db: Db;
  let owner: Required<Pick<Actor, 'id' | 'email'>>;
  let viewer: Required<Pick<Actor, 'id' | 'email'>>;
  let editor: Required<Pick<Actor, 'id' | 'email'>>;
  let stranger: Required<Pick<Actor, 'id' | 'email'>>;
  let actors: Record<string, Actor>;
  let dir: Row;
  let link: Row;
  let viewerMembership: Row;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db, { tier: 'pro' });
    viewer = await createUser(db);
    // Mixed case in the JWT must still match the lower-cased membership.
    editor = await createUser(db, { email: `Editor-${Date.now()}@Example.com` });
    stranger = await createUser(db);
    actors = { anonymous, stranger, viewer, editor, owner };
    dir = await insertRow<Row>(db, 'link_directories', { name: 'Shared', owner_id: owner.id });
    viewerMembership = await insertRow<Row>(db, 'directory_members', {
      directory_id: dir.id,
      user_email: viewer.email,
    });
    await insertRow(db, 'directory_members', { directory_id: dir.id, user_email: editor.email, role: 'editor' });
    link = await insertRow<Row>(db, 'saved_links', { directory_id: dir.id, url: 'https://a.example', title: 'A' });
  });
  afterAll(() => db.close());

  describe('link_directories', () => {
    it('select: owner and live members only', async () => {
      expect(await outcomes(db, actors, 'select id from public.link_directories where id = $1', [dir.id])).toEqual({
        anonymous: 0,
        stranger: 0,
        viewer: 1,
        editor: 1,
        owner: 1,
      });
    });

    it('insert: a signed-in user creates their own directory, never one for someone else', async () => {
      const own = "insert into public.link_directories (name) values ('Mine') returning id";
      expect(await outcomes(db, actors, own)).toEqual({
        anonymous: DENIED,
        stranger: 1,
        viewer: 1,
        editor: 1,
        owner: 1,
      });
      const forOwner = "insert into public.link_directories (name, owner_id) values ('X', $1) returning id";
      expect(await outcomes(db, actors, forOwner, [owner.id])).toEqual({
        anonymous: DENIED,
        stranger: DENIED,
        viewer: DENIED,
        editor: DENIED,
        owner: 1,
      });
    });

    it('update and delete: owner only', async () => {
      const only = { anonymous: 0, stranger: 0, viewer: 0, editor: 0, owner: 1 };
      const update = "update public.link_directories set name = 'Renamed' where id = $1 returning id";
      expect(await outcomes(db, actors, update, [dir.id])).toEqual(only);
      const softDelete = 'update public.link_directories set deleted_at = now() where id = $1 returning id';
      expect(await outcomes(db, actors, softDelete, [dir.id])).toEqual(only);
      expect(
        await outcomes(db, actors, 'delete from public.link_directories where id = $1 returning id', [dir.id]),
      ).toEqual(only);
    });
  });

  describe('directory_members', () => {
    it('select: the owner and every live member see all members; others none', async () => {
      const select = 'select id from public.directory_members where directory_id = $1';
      expect(await outcomes(db, actors, select, [dir.id])).toEqual({
        anonymous: 0,
        stranger: 0,
        viewer: 2,
        editor: 2,
        owner: 2,
      });
    });

    it('insert, update and delete: owner only', async () => {
      const insert =
        "insert into public.directory_members (directory_id, user_email) values ($1, 'new@example.com') returning id";
      expect(await outcomes(db, actors, insert, [dir.id])).toEqual({
        anonymous: DENIED,
        stranger: DENIED,
        viewer: DENIED,
        editor: DENIED,
        owner: 1,
      });
      const only = { anonymous: 0, stranger: 0, viewer: 0, editor: 0, owner: 1 };
      const update = "update public.directory_members set role = 'editor' where id = $1 returning id";
      expect(await outcomes(db, actors, update, [viewerMembership.id])).toEqual(only);
      const remove = 'delete from public.directory_members where id = $1 returning id';
      expect(await outcomes(db, actors, remove, [viewerMembership.id])).toEqual(only);
    });

    it('lower-cases the invited e-mail and records the inviter', async () => {
      const row = await as(db, owner, async (sql) => {
        const { rows } = await sql.query(
          "insert into public.directory_members (directory_id, user_email) values ($1, ' Mixed@Example.COM ') returning user_email, role, inviter_id",
          [dir.id],
        );
        return rows[0];
      });
      expect(row).toEqual({ user_email: 'mixed@example.com', role: 'viewer', inviter_id: owner.id });
    });

    it('a removed member loses access but still sees the tombstone of their membership', async () => {
      const removed = await createUser(db);
      const membership = await insertRow<Row>(db, 'directory_members', {
        directory_id: dir.id,
        user_email: removed.email,
      });
      expect(await outcome(db, removed, 'select id from public.saved_links where id = $1', [link.id])).toBe(1);
      await as(db, owner, (sql) =>
        sql.query('update public.directory_members set deleted_at = now() where id = $1', [membership.id]),
      );
      expect(await outcome(db, removed, 'select id from public.link_directories where id = $1', [dir.id])).toBe(0);
      expect(await outcome(db, removed, 'select id from public.saved_links where id = $1', [link.id])).toBe(0);
      expect(
        await outcome(db, removed, 'select id from public.directory_members where id = $1 and deleted_at is not null', [
          membership.id,
        ]),
      ).toBe(1);
    });
  });

  describe('saved_links', () => {
    it('select: owner and members', async () => {
      expect(await outcomes(db, actors, 'select id from public.saved_links where id = $1', [link.id])).toEqual({
        anonymous: 0,
        stranger: 0,
        viewer: 1,
        editor: 1,
        owner: 1,
      });
    });

    it('insert, update and delete: owner and editor', async () => {
      const insert =
        "insert into public.saved_links (directory_id, url, title) values ($1, 'https://b.example', 'B') returning id";
      expect(await outcomes(db, actors, insert, [dir.id])).toEqual({
        anonymous: DENIED,
        stranger: DENIED,
        viewer: DENIED,
        editor: 1,
        owner: 1,
      });
      const writers = { anonymous: 0, stranger: 0, viewer: 0, editor: 1, owner: 1 };
      const update = "update public.saved_links set title = 'Changed' where id = $1 returning id";
      expect(await outcomes(db, actors, update, [link.id])).toEqual(writers);
      const remove = 'delete from public.saved_links where id = $1 returning id';
      expect(await outcomes(db, actors, remove, [link.id])).toEqual(writers);
    });

    it("an editor's link belongs to the directory owner and records its creator", async () => {
      const row = await as(db, editor, async (sql) => {
        const { rows } = await sql.query(
          "insert into public.saved_links (directory_id, url, title, owner_id) values ($1, 'https://c.example', 'C', $2) returning owner_id, created_by",
          [dir.id, editor.id],
        );
        return rows[0];
      });
      expect(row).toEqual({ owner_id: owner.id, created_by: editor.id });
    });

    it('refuses moving a link into a directory the caller cannot edit', async () => {
      const other = await insertRow<Row>(db, 'link_directories', { name: 'Theirs', owner_id: stranger.id });
      const move = 'update public.saved_links set directory_id = $2 where id = $1 returning id';
      expect(await outcome(db, owner, move, [link.id, other.id])).toBe(DENIED);
    });

    it('refuses urls that are not http or https', async () => {
      for (const url of ['javascript:alert(1)', 'ftp://x.example', 'https://', 'https://a b']) {
        const insert = 'insert into public.saved_links (directory_id, url, title) values ($1, $2, $3) returning id';
        expect(await outcome(db, owner, insert, [dir.id, url, 'T']), url).toBe('error 22023');
      }
    });

    it('tombstones the links and members of a tombstoned directory', async () => {
      await as(db, owner, (sql) =>
        sql.query('update public.link_directories set deleted_at = now() where id = $1', [dir.id]),
      );
      const { rows } = await db.query<{ live: string }>(
        `select (select count(*) from public.saved_links where directory_id = $1 and deleted_at is null)
              + (select count(*) from public.directory_members where directory_id = $1 and deleted_at is null) as live`,
        [dir.id],
      );
      expect(Number(rows[0]?.live)).toBe(0);
      expect(await outcome(db, editor, 'select id from public.link_directories where id = $1', [dir.id])).toBe(0);
    });
  });
});
