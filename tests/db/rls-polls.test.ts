import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, insertRow, outcomes, type Actor } from '../support/db.ts';

type Row = { id: string };
const DENIED = 'error 42501';
const options = JSON.stringify([{ text: 'Yes' }, { text: 'No' }]);

describe.each(dbKinds)('RLS on polls and votes (%s)', (kind) => {
  let db: Db;
  let owner: Required<Pick<Actor, 'id' | 'email'>>;
  let viewer: Required<Pick<Actor, 'id' | 'email'>>;
  let teamViewer: Required<Pick<Actor, 'id' | 'email'>>;
  let stranger: Required<Pick<Actor, 'id' | 'email'>>;
  let actors: Record<string, Actor>;
  let dir: Row;
  let publicPoll: Row;
  let teamPoll: Row;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db, { tier: 'team' });
    viewer = await createUser(db);
    teamViewer = await createUser(db, { tier: 'team' });
    stranger = await createUser(db, { tier: 'team' });
    actors = { anonymous, stranger, viewer, teamViewer, owner };
    dir = await insertRow<Row>(db, 'link_directories', { name: 'Team', owner_id: owner.id });
    await insertRow(db, 'directory_members', { directory_id: dir.id, user_email: viewer.email });
    await insertRow(db, 'directory_members', { directory_id: dir.id, user_email: teamViewer.email });
    publicPoll = await insertRow<Row>(db, 'voting_posts', { title: 'Lunch?', options, created_by_id: owner.id });
    teamPoll = await insertRow<Row>(db, 'voting_posts', {
      title: 'Sprint?',
      options,
      created_by_id: owner.id,
      directory_id: dir.id,
    });
  });
  afterAll(() => db.close());

  const usernameOf = async (id: string) =>
    (await db.query<{ username: string }>('select username from public.user_profiles where id = $1', [id])).rows[0]!
      .username;

  describe('voting_posts', () => {
    it('select: public polls to every signed-in user, team polls to the directory people', async () => {
      const select = 'select id from public.voting_posts where id = $1';
      expect(await outcomes(db, actors, select, [publicPoll.id])).toEqual({
        anonymous: 0,
        stranger: 1,
        viewer: 1,
        teamViewer: 1,
        owner: 1,
      });
      expect(await outcomes(db, actors, select, [teamPoll.id])).toEqual({
        anonymous: 0,
        stranger: 0,
        viewer: 1,
        teamViewer: 1,
        owner: 1,
      });
    });

    it("insert: public polls by any signed-in user; team polls by the owner or members of a Team owner's directory", async () => {
      const publicInsert = `insert into public.voting_posts (title, options) values ('Q', $1) returning id`;
      expect(await outcomes(db, actors, publicInsert, [options])).toEqual({
        anonymous: 'error 28000',
        stranger: 1,
        viewer: 1,
        teamViewer: 1,
        owner: 1,
      });
      const teamInsert = `insert into public.voting_posts (title, options, directory_id) values ('Q', $1, $2) returning id`;
      expect(await outcomes(db, actors, teamInsert, [options, dir.id])).toEqual({
        anonymous: 'error 28000',
        stranger: DENIED,
        // The directory owner's plan (Team) decides, not the member's own (Free).
        viewer: 1,
        teamViewer: 1,
        owner: 1,
      });
      await db.query("update public.user_profiles set subscription_tier = 'pro' where id = $1", [owner.id]);
      expect(await outcomes(db, { viewer, teamViewer, owner }, teamInsert, [options, dir.id])).toEqual({
        viewer: 'error P0001',
        teamViewer: 'error P0001',
        owner: 'error P0001',
      });
      await db.query("update public.user_profiles set subscription_tier = 'team' where id = $1", [owner.id]);
    });

    it('records the creator from the session, whatever the client sends', async () => {
      const row = await as(db, viewer, async (sql) => {
        const { rows } = await sql.query(
          `insert into public.voting_posts (title, options, created_by, created_by_id)
           values ('Mine', $1, 'boss@example.com', $2) returning created_by, created_by_id, options`,
          [JSON.stringify([{ text: 'A', votes: 99 }, { text: 'B' }]), owner.id],
        );
        return rows[0];
      });
      // created_by is the creator's username (readers see it), never their address.
      expect(row).toEqual({
        created_by: await usernameOf(viewer.id),
        created_by_id: viewer.id,
        options: [
          { text: 'A', votes: 0 },
          { text: 'B', votes: 0 },
        ],
      });
    });

    it("created_by: every persona that sees a poll reads the creator's username, never an address", async () => {
      const read = 'select created_by, created_by_id from public.voting_posts where id = any ($1::uuid[])';
      const seen: Record<string, unknown> = {};
      for (const [name, actor] of Object.entries(actors)) {
        seen[name] = await as(
          db,
          actor,
          async (sql) => (await sql.query(read, [[publicPoll.id, teamPoll.id]])).rows,
        ).catch((error: { code?: string }) => `error ${error.code}`);
      }
      const creator = { created_by: await usernameOf(owner.id), created_by_id: owner.id };
      expect(seen).toEqual({
        anonymous: [],
        stranger: [creator],
        viewer: [creator, creator],
        teamViewer: [creator, creator],
        owner: [creator, creator],
      });
      expect(JSON.stringify(seen)).not.toContain('@');
    });

    it('update and delete: creator only', async () => {
      const only = { anonymous: 0, stranger: 0, viewer: 0, teamViewer: 0, owner: 1 };
      const update = "update public.voting_posts set title = 'Dinner?' where id = $1 returning id";
      expect(await outcomes(db, actors, update, [publicPoll.id])).toEqual(only);
      const remove = 'delete from public.voting_posts where id = $1 returning id';
      expect(await outcomes(db, actors, remove, [publicPoll.id])).toEqual(only);
    });

    it('refuses option lists outside 2..6 and blank options', async () => {
      const insert = `insert into public.voting_posts (title, options) values ('Q', $1) returning id`;
      const bad = [
        [{ text: 'Only' }],
        Array.from({ length: 7 }, (_, i) => ({ text: `O${i}` })),
        [{ text: 'A' }, { text: '  ' }],
        { text: 'not an array' },
      ];
      for (const value of bad) {
        expect(await outcomes(db, { owner }, insert, [JSON.stringify(value)])).toEqual({ owner: 'error 22023' });
      }
    });
  });

  describe('user_votes', () => {
    it('insert: signed-in users on polls they can see, as themselves', async () => {
      const vote = `insert into public.user_votes (post_id, option_index) values ($1, 0) returning user_id, user_email`;
      expect(await outcomes(db, actors, vote, [publicPoll.id])).toEqual({
        anonymous: DENIED,
        stranger: 1,
        viewer: 1,
        teamViewer: 1,
        owner: 1,
      });
      expect(await outcomes(db, actors, vote, [teamPoll.id])).toEqual({
        anonymous: DENIED,
        stranger: DENIED,
        viewer: 1,
        teamViewer: 1,
        owner: 1,
      });
      const spoof = await as(db, stranger, async (sql) => {
        const { rows } = await sql.query(
          `insert into public.user_votes (post_id, option_index, user_id, user_email)
           values ($1, 1, $2, $3) returning user_id, user_email`,
          [publicPoll.id, owner.id, owner.email],
        );
        return rows[0];
      });
      expect(spoof).toEqual({ user_id: stranger.id, user_email: stranger.email });
    });

    it('select: own votes only; update and delete: nobody', async () => {
      await as(db, viewer, (sql) =>
        sql.query('insert into public.user_votes (post_id, option_index) values ($1, 0)', [publicPoll.id]),
      );
      const select = 'select id from public.user_votes where post_id = $1';
      expect(await outcomes(db, actors, select, [publicPoll.id])).toEqual({
        anonymous: 0,
        stranger: 1,
        viewer: 1,
        teamViewer: 0,
        owner: 0,
      });
      const none = { anonymous: 0, stranger: 0, viewer: 0, teamViewer: 0, owner: 0 };
      const update = 'update public.user_votes set option_index = 1 where post_id = $1 returning id';
      expect(await outcomes(db, actors, update, [publicPoll.id])).toEqual(none);
      const remove = 'delete from public.user_votes where post_id = $1 returning id';
      expect(await outcomes(db, actors, remove, [publicPoll.id])).toEqual(none);
    });
  });
});
