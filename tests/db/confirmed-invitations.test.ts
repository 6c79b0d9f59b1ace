/**
 * A directory membership binds to the account's confirmed address, never to
 * the JWT's e-mail claim. An account that signed up with an invited address sees nothing of the
 * directory until that address is confirmed; a confirmed e-mail change drops the old address's
 * memberships.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, insertRow, outcome, type Actor } from '../support/db.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;
const stamp = Date.now().toString(36);
const options = JSON.stringify([{ text: 'Yes' }, { text: 'No' }]);

describe.each(dbKinds)('memberships bind to a confirmed address (%s)', (kind) => {
  let db: Db;
  let owner: User;
  let dir: Row;
  let link: Row;
  let teamPoll: Row;
  let n = 0;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db, { tier: 'team' });
    dir = await insertRow<Row>(db, 'link_directories', { name: 'Shared', owner_id: owner.id, is_public: false });
    link = await insertRow<Row>(db, 'saved_links', { directory_id: dir.id, url: 'https://a.example', title: 'A' });
    teamPoll = await insertRow<Row>(db, 'voting_posts', {
      title: 'Team?',
      options,
      created_by_id: owner.id,
      directory_id: dir.id,
    });
  });
  afterAll(() => db.close());

  const invite = async (email: string, role = 'editor') =>
    insertRow<Row>(db, 'directory_members', { directory_id: dir.id, user_email: email, role });
  const setConfirmed = (user: User, confirmed: boolean) =>
    db.query(`update auth.users set email_confirmed_at = ${confirmed ? 'now()' : 'null'} where id = $1`, [user.id]);

  /** What the actor sees of the shared directory, and whether they may write to it. */
  const access = async (actor: Actor) => ({
    directory: await outcome(db, actor, 'select id from public.link_directories where id = $1', [dir.id]),
    links: await outcome(db, actor, 'select id from public.saved_links where directory_id = $1', [dir.id]),
    members: await outcome(db, actor, 'select id from public.directory_members where directory_id = $1', [dir.id]),
    poll: await outcome(db, actor, 'select id from public.voting_posts where id = $1', [teamPoll.id]),
    addLink: await outcome(
      db,
      actor,
      "insert into public.saved_links (directory_id, url, title) values ($1, 'https://b.example', 'B') returning id",
      [dir.id],
    ),
    editLink: await outcome(db, actor, "update public.saved_links set title = 'T' where id = $1 returning id", [
      link.id,
    ]),
    unlock: await outcome(db, actor, 'select public.get_public_directory($1) as v', [dir.id]),
  });

  const none = {
    directory: 0,
    links: 0,
    members: 0,
    poll: 0,
    addLink: 'error 42501',
    editLink: 0,
    unlock: 'error PT404',
  };

  it('an account that signed up with an invited address sees nothing until the address is confirmed', async () => {
    const email = `invited-${stamp}-${n++}@example.com`;
    await invite(email);
    const user = await createUser(db, { email });
    await setConfirmed(user, false);
    // The JWT names the invited address, as GoTrue's would right after sign-up.
    expect(await access(user)).toEqual(none);
    const vote = 'insert into public.user_votes (post_id, option_index) values ($1, 0) returning id';
    expect(await outcome(db, user, vote, [teamPoll.id])).toBe('error 42501');
    const teamInsert =
      'insert into public.voting_posts (title, options, directory_id) values ($1, $2, $3) returning id';
    expect(await outcome(db, user, teamInsert, ['Mine?', options, dir.id])).toBe('error 42501');

    await setConfirmed(user, true);
    expect(await access(user)).toEqual({
      directory: 1,
      links: 1,
      members: 1,
      poll: 1,
      addLink: 1,
      editLink: 1,
      unlock: 1,
    });
    expect(await outcome(db, user, vote, [teamPoll.id])).toBe(1);
    expect(await outcome(db, user, teamInsert, ['Mine?', options, dir.id])).toBe(1);
  });

  it("a JWT's e-mail claim alone grants nothing: the account's own confirmed address decides", async () => {
    const email = `claimed-${stamp}-${n++}@example.com`;
    await invite(email);
    const stranger = await createUser(db);
    expect(await access({ id: stranger.id, email })).toEqual(none);
  });

  it("a confirmed e-mail change loses the old address's memberships and gains the new one's", async () => {
    const oldEmail = `old-${stamp}-${n++}@example.com`;
    const newEmail = `new-${stamp}-${n++}@example.com`;
    await invite(oldEmail);
    const user = await createUser(db, { email: oldEmail });
    expect((await access(user)).directory).toBe(1);

    await db.query('update auth.users set email = $2, email_confirmed_at = now() where id = $1', [user.id, newEmail]);
    // A token issued before the change still carries the old address.
    expect(await access({ id: user.id, email: oldEmail })).toEqual(none);
    expect(await access({ id: user.id, email: newEmail })).toEqual(none);

    await invite(newEmail, 'viewer');
    expect((await access({ id: user.id, email: oldEmail })).directory).toBe(1);
  });

  it("records a vote under the voter's confirmed address, whatever the JWT or the client says", async () => {
    const poll = await insertRow<Row>(db, 'voting_posts', { title: 'Open?', options, created_by_id: owner.id });
    const voter = await createUser(db);
    const vote = (actor: Actor) =>
      as(db, actor, async (sql) => {
        const { rows } = await sql.query<{ user_email: string | null }>(
          `insert into public.user_votes (post_id, option_index, user_email)
           values ($1, 0, 'boss@example.com') returning user_email`,
          [poll.id],
        );
        return rows[0]?.user_email;
      });
    expect(await vote({ id: voter.id, email: 'someone-else@example.com' })).toBe(voter.email.toLowerCase());
    const unconfirmed = await createUser(db);
    await setConfirmed(unconfirmed, false);
    expect(await vote(unconfirmed)).toBeNull();
  });
});
