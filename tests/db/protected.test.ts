import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, insertRow, sqlError, type Actor } from '../support/db.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;

describe.each(dbKinds)('protected columns (%s)', (kind) => {
  let db: Db;
  let owner: User;
  let other: User;
  let dir: Row;
  let link: Row;
  let event: Row;
  let poll: Row;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db, { tier: 'pro' });
    other = await createUser(db, { tier: 'pro' });
    dir = await insertRow<Row>(db, 'link_directories', { name: 'D', owner_id: owner.id });
    link = await insertRow<Row>(db, 'saved_links', { directory_id: dir.id, url: 'https://a.example', title: 'A' });
    event = await insertRow<Row>(db, 'calendar_events', { title: 'E', starts_at: '2030-01-01', owner_id: owner.id });
    poll = await insertRow<Row>(db, 'voting_posts', {
      title: 'P',
      options: JSON.stringify([{ text: 'a' }, { text: 'b' }]),
      created_by_id: owner.id,
    });
  });
  afterAll(() => db.close());

  const refused = (field: string) => ({
    code: '42501',
    message: `The field ${field} cannot be changed.`,
    hint: 'forbidden',
  });
  const update = (table: string, set: string, id: string, params: unknown[] = []) =>
    sqlError(as(db, owner, (sql) => sql.query(`update public.${table} set ${set} where id = $1`, [id, ...params])));

  it('user_profiles: subscription_tier, id and email', async () => {
    // The tier has its own guard, which answers first.
    expect(await update('user_profiles', "subscription_tier = 'team'", owner.id)).toEqual({
      code: '42501',
      message: 'The plan changes only through billing.',
      hint: 'forbidden',
    });
    expect(await update('user_profiles', 'id = $2', owner.id, [other.id])).toEqual(refused('id'));
    expect(await update('user_profiles', "email = 'x@example.com'", owner.id)).toEqual(refused('email'));
  });

  it('link_directories: owner_id and has_password', async () => {
    expect(await update('link_directories', 'owner_id = $2', dir.id, [other.id])).toEqual(refused('owner_id'));
    expect(await update('link_directories', 'has_password = true', dir.id)).toEqual(refused('has_password'));
  });

  it('saved_links: owner_id and created_by', async () => {
    expect(await update('saved_links', 'owner_id = $2', link.id, [other.id])).toEqual(refused('owner_id'));
    expect(await update('saved_links', 'created_by = $2', link.id, [other.id])).toEqual(refused('created_by'));
  });

  it("saved_links: what the server read of the page, on a client's update and on its new row", async () => {
    const serverOnly: [string, string][] = [
      ['site_name', "site_name = 'Forged'"],
      ['icon_url', "icon_url = 'https://evil.example/i.png'"],
      ['image_url', "image_url = 'https://evil.example/p.png'"],
      ['preview_state', "preview_state = 'done'"],
      ['previewed_at', 'previewed_at = now()'],
      ['broken_at', 'broken_at = now()'],
    ];
    for (const [field, set] of serverOnly) {
      expect(await update('saved_links', set, link.id)).toEqual(refused(field));
      const column = set.split(' = ')[0];
      const value = set.split(' = ')[1];
      const insert = await sqlError(
        as(db, owner, (sql) =>
          sql.query(
            `insert into public.saved_links (directory_id, url, title, ${column}) values ($1, 'https://b.example', 'B', ${value})`,
            [dir.id],
          ),
        ),
      );
      expect(insert).toEqual(refused(field));
    }
    const { rows } = await db.query('select count(*)::int as n from public.saved_links where directory_id = $1', [
      dir.id,
    ]);
    expect(rows[0]).toEqual({ n: 1 });
    // The server (service role) writes them.
    await as(db, { role: 'service_role' }, (sql) =>
      sql.query("update public.saved_links set site_name = 'Example', preview_state = 'done' where id = $1", [link.id]),
    );
    const after = await db.query('select site_name, preview_state from public.saved_links where id = $1', [link.id]);
    expect(after.rows[0]).toEqual({ site_name: 'Example', preview_state: 'done' });
  });

  it('calendar_events: owner_id', async () => {
    expect(await update('calendar_events', 'owner_id = $2', event.id, [other.id])).toEqual(refused('owner_id'));
  });

  it('voting_posts: created_by and created_by_id', async () => {
    expect(await update('voting_posts', "created_by = 'x@example.com'", poll.id)).toEqual(refused('created_by'));
    expect(await update('voting_posts', 'created_by_id = $2', poll.id, [other.id])).toEqual(refused('created_by_id'));
  });

  it('leaves the other columns editable and writes nothing when refused', async () => {
    await as(db, owner, (sql) =>
      sql.query("update public.user_profiles set bio = 'Hello', full_name = null where id = $1", [owner.id]),
    );
    const { rows } = await db.query(
      'select bio, full_name, subscription_tier from public.user_profiles where id = $1',
      [owner.id],
    );
    expect(rows[0]).toEqual({ bio: 'Hello', full_name: '', subscription_tier: 'pro' });
  });

  it('lets the superuser change them, and service_role the tier only through set_subscription_tier', async () => {
    await db.query("update public.user_profiles set subscription_tier = 'team' where id = $1", [owner.id]);
    const direct = await sqlError(
      as(db, { role: 'service_role' }, (sql) =>
        sql.query("update public.user_profiles set subscription_tier = 'free' where id = $1", [owner.id]),
      ),
    );
    expect(direct).toMatchObject({ code: '42501', message: 'The plan changes only through billing.' });
    await as(db, { role: 'service_role' }, (sql) =>
      sql.query("select public.set_subscription_tier($1, 'free')", [owner.id]),
    );
    const { rows } = await db.query('select subscription_tier from public.user_profiles where id = $1', [owner.id]);
    expect(rows[0]).toEqual({ subscription_tier: 'free' });
    await db.query("update public.user_profiles set subscription_tier = 'pro' where id = $1", [owner.id]);
  });

  it('still applies the data rules to the superuser', async () => {
    const error = await sqlError(
      db.query("insert into public.saved_links (directory_id, url, title) values ($1, 'file:///etc/passwd', 'X')", [
        dir.id,
      ]),
    );
    expect(error.code).toBe('22023');
    const closedVote = await insertRow<Row>(db, 'voting_posts', {
      title: 'Closed',
      options: JSON.stringify([{ text: 'a' }, { text: 'b' }]),
      created_by_id: owner.id,
      is_active: false,
    });
    const vote = await sqlError(
      db.query('insert into public.user_votes (post_id, option_index, user_id) values ($1, 0, $2)', [
        closedVote.id,
        other.id,
      ]),
    );
    expect(vote.hint).toBe('poll_closed');
  });

  it('a moved link takes the new directory owner without tripping the owner_id guard', async () => {
    const second = await insertRow<Row>(db, 'link_directories', { name: 'Second', owner_id: owner.id });
    await as(db, owner, (sql) =>
      sql.query('update public.saved_links set directory_id = $2 where id = $1', [link.id, second.id]),
    );
    const { rows } = await db.query('select directory_id, owner_id from public.saved_links where id = $1', [link.id]);
    expect(rows[0]).toEqual({ directory_id: second.id, owner_id: owner.id });
  });
});
