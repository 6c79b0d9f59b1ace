import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, insertRow, outcome, sqlError, type Actor } from '../support/db.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;

const limit = (message: string) => ({ code: 'P0001', message, hint: 'limit_reached' });

describe.each(dbKinds)('plan limits held by the database (%s)', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const newDirectory = (user: User, name = 'Dir') =>
    as(db, user, (sql) => sql.query('insert into public.link_directories (name) values ($1)', [name]));
  const addLinks = (dir: string, count: number) =>
    db.query(
      `insert into public.saved_links (directory_id, url, title)
       select $1, 'https://example.com/' || n, 'Link ' || n from generate_series(1, $2::int) n`,
      [dir, count],
    );

  describe('directories', () => {
    it('Free: one owned live directory; the second is refused with the product message', async () => {
      const user = await createUser(db);
      await newDirectory(user);
      expect(await sqlError(newDirectory(user, 'Second'))).toEqual(limit('Upgrade to Pro to create more directories.'));
    });

    it('Free: a tombstoned directory frees the slot, and restoring it is refused while another is live', async () => {
      const user = await createUser(db);
      const first = await insertRow<Row>(db, 'link_directories', { name: 'One', owner_id: user.id });
      await as(db, user, (sql) =>
        sql.query('update public.link_directories set deleted_at = now() where id = $1', [first.id]),
      );
      await newDirectory(user, 'Two');
      const restore = as(db, user, (sql) =>
        sql.query('update public.link_directories set deleted_at = null where id = $1', [first.id]),
      );
      expect((await sqlError(restore)).hint).toBe('limit_reached');
    });

    it('Pro: unlimited directories', async () => {
      const user = await createUser(db, { tier: 'pro' });
      for (const name of ['A', 'B', 'C']) await newDirectory(user, name);
      const { rows } = await db.query('select id from public.link_directories where owner_id = $1', [user.id]);
      expect(rows).toHaveLength(3);
    });
  });

  describe('links', () => {
    it('Free: 30 live links; the 31st is refused', async () => {
      const user = await createUser(db);
      const dir = await insertRow<Row>(db, 'link_directories', { name: 'D', owner_id: user.id });
      await addLinks(dir.id, 30);
      const insert = as(db, user, (sql) =>
        sql.query("insert into public.saved_links (directory_id, url, title) values ($1, 'https://x.example', 'X')", [
          dir.id,
        ]),
      );
      expect(await sqlError(insert)).toEqual(limit('Upgrade to Pro to save more links.'));
    });

    it("counts an editor's links against the directory owner's plan", async () => {
      const owner = await createUser(db, { tier: 'pro' });
      const editor = await createUser(db, { tier: 'team' });
      const dir = await insertRow<Row>(db, 'link_directories', { name: 'Shared', owner_id: owner.id });
      await insertRow(db, 'directory_members', { directory_id: dir.id, user_email: editor.email, role: 'editor' });
      await addLinks(dir.id, 30);
      const insert =
        "insert into public.saved_links (directory_id, url, title) values ($1, 'https://y.example', 'Y') returning id";
      expect(await outcome(db, editor, insert, [dir.id])).toBe(1);
      await db.query("update public.user_profiles set subscription_tier = 'free' where id = $1", [owner.id]);
      expect(await outcome(db, editor, insert, [dir.id])).toBe('error P0001');
    });

    it('Free: no tags and no favourites; Pro: both', async () => {
      const free = await createUser(db);
      const pro = await createUser(db, { tier: 'pro' });
      const freeDir = await insertRow<Row>(db, 'link_directories', { name: 'F', owner_id: free.id });
      const proDir = await insertRow<Row>(db, 'link_directories', { name: 'P', owner_id: pro.id });
      const tagged =
        "insert into public.saved_links (directory_id, url, title, tags) values ($1, 'https://t.example', 'T', $2) returning tags";
      const favourite =
        "insert into public.saved_links (directory_id, url, title, is_favorite) values ($1, 'https://f.example', 'F', true) returning id";
      expect(await sqlError(as(db, free, (sql) => sql.query(tagged, [freeDir.id, ['work']])))).toEqual(
        limit('Upgrade to Pro to use tags.'),
      );
      expect(await sqlError(as(db, free, (sql) => sql.query(favourite, [freeDir.id])))).toEqual(
        limit('Upgrade to Pro to use favourites.'),
      );
      const tags = await as(
        db,
        pro,
        async (sql) => (await sql.query(tagged, [proDir.id, [' work ', 'work', '', 'fun']])).rows,
      );
      expect(tags).toEqual([{ tags: ['work', 'fun'] }]);
      expect(await outcome(db, pro, favourite, [proDir.id])).toBe(1);
      // An empty tag list is fine on Free.
      expect(await outcome(db, free, tagged, [freeDir.id, ['  ']])).toBe(1);
    });
  });

  describe('members', () => {
    it('Free: Viewer invites only; Editor refused on invite and on role change', async () => {
      const owner = await createUser(db);
      const dir = await insertRow<Row>(db, 'link_directories', { name: 'D', owner_id: owner.id });
      const inviteEditor = as(db, owner, (sql) =>
        sql.query(
          "insert into public.directory_members (directory_id, user_email, role) values ($1, 'e@example.com', 'editor')",
          [dir.id],
        ),
      );
      expect(await sqlError(inviteEditor)).toEqual(limit('Upgrade to Pro to assign the Editor role.'));
      const viewer = await as(db, owner, async (sql) => {
        const { rows } = await sql.query<Row>(
          "insert into public.directory_members (directory_id, user_email) values ($1, 'v@example.com') returning id",
          [dir.id],
        );
        return rows[0]!;
      });
      const promote = as(db, owner, (sql) =>
        sql.query("update public.directory_members set role = 'editor' where id = $1", [viewer.id]),
      );
      expect(await sqlError(promote)).toEqual(limit('Upgrade to Pro to assign the Editor role.'));
    });

    it('Pro: Editor allowed', async () => {
      const owner = await createUser(db, { tier: 'pro' });
      const dir = await insertRow<Row>(db, 'link_directories', { name: 'D', owner_id: owner.id });
      const insert =
        "insert into public.directory_members (directory_id, user_email, role) values ($1, 'e@example.com', 'editor') returning id";
      expect(await outcome(db, owner, insert, [dir.id])).toBe(1);
    });
  });

  describe('events', () => {
    const event = (series: string | null = null, rule = 'none') =>
      `insert into public.calendar_events (title, starts_at, ends_at, series_id, recurrence_rule)
       values ('E', now(), now() + interval '1 hour', ${series ? `'${series}'` : 'null'}, '${rule}') returning id`;

    it('Free: recurrence refused; Pro: allowed', async () => {
      const free = await createUser(db);
      const pro = await createUser(db, { tier: 'pro' });
      const series = crypto.randomUUID();
      expect(await sqlError(as(db, free, (sql) => sql.query(event(null, 'weekly'))))).toEqual(
        limit('Recurring events are a Pro feature.'),
      );
      expect(await sqlError(as(db, free, (sql) => sql.query(event(series))))).toEqual(
        limit('Recurring events are a Pro feature.'),
      );
      expect(await outcome(db, pro, event(series, 'weekly'))).toBe(1);
    });

    it("Free: 10 events created per calendar month in the user's time zone; tasks do not count", async () => {
      const user = await createUser(db);
      const zone = 'Pacific/Kiritimati';
      await db.query('update public.user_profiles set time_zone = $2 where id = $1', [user.id, zone]);
      const monthStart = `(date_trunc('month', now() at time zone '${zone}') at time zone '${zone}')`;
      await db.query(
        `insert into public.calendar_events (title, starts_at, owner_id, created_at)
         select 'Old', now(), $1, ${monthStart} - interval '1 minute' from generate_series(1, 3)`,
        [user.id],
      );
      await db.query(
        `insert into public.calendar_events (title, starts_at, owner_id, created_at)
         select 'This month', now(), $1, ${monthStart} from generate_series(1, 9)`,
        [user.id],
      );
      await db.query(
        `insert into public.calendar_events (title, is_task, owner_id) select 'Task', true, $1 from generate_series(1, 5)`,
        [user.id],
      );
      expect(await outcome(db, user, event())).toBe(1);
      await as(db, user, (sql) => sql.query(event()));
      expect(await sqlError(as(db, user, (sql) => sql.query(event())))).toEqual(
        limit('Upgrade to Pro to create more than 10 events per month.'),
      );
      const task = "insert into public.calendar_events (title, is_task) values ('Still fine', true) returning id";
      expect(await outcome(db, user, task)).toBe(1);
    });
  });

  describe('polls', () => {
    const poll = `insert into public.voting_posts (title, options) values ('P', '[{"text":"a"},{"text":"b"}]') returning id`;

    it('Free: 5 polls created per month; the 6th is refused with the product message', async () => {
      const user = await createUser(db);
      for (let i = 0; i < 5; i++) await as(db, user, (sql) => sql.query(poll));
      expect(await sqlError(as(db, user, (sql) => sql.query(poll)))).toEqual(
        limit('Upgrade to Pro to create more than 5 voting posts per month.'),
      );
    });

    it('Pro: unlimited polls', async () => {
      const user = await createUser(db, { tier: 'pro' });
      for (let i = 0; i < 6; i++) await as(db, user, (sql) => sql.query(poll));
      const { rows } = await db.query('select id from public.voting_posts where created_by_id = $1', [user.id]);
      expect(rows).toHaveLength(6);
    });
  });
});
