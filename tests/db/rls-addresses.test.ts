/**
 * Who reads whose e-mail address (docs/product.md, "Who sees what"): no persona (stranger, viewer,
 * editor, owner, anon) reads another user's address in any synced table, directly under
 * row-level security or through sync_pull, except the invitation addresses of a directory the
 * persona is in (directory_members.user_email, intended). Every row is made through sync_push, as
 * the app makes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { migrate } from '../../supabase/local/migrate.ts';
import { syncedTableNames } from '../../src/data/rows.ts';
import { anonymous, as, createUser, dbKinds, freshDb, insertRow, sqlError, type Actor } from '../support/db.ts';
import { changesOf, mutation, pull, pullAll, push, uuid, type Row } from '../sync-server/sync.ts';
import { othersAddresses } from '../support/addresses.ts';
import { withDbBefore } from '../support/db-before.ts';

type Person = Required<Pick<Actor, 'id' | 'email'>> & { username: string };

async function readDirectly(db: Db, actor: Actor): Promise<Record<string, Row[]>> {
  const rows: Record<string, Row[]> = {};
  await as(db, actor, async (sql) => {
    for (const table of syncedTableNames) {
      const { rows: found } = await sql.query<{ row: Row }>(`select to_jsonb(t) as row from public.${table} t`);
      rows[table] = found.map((r) => r.row);
    }
  });
  return rows;
}

async function readByPull(db: Db, actor: Actor): Promise<Record<string, Row[]>> {
  return changesOf((await pullAll(db, actor)).pages);
}

describe.each(dbKinds)('no persona reads another user’s address (%s)', (kind) => {
  let db: Db;
  let owner: Person;
  let editor: Person;
  let viewer: Person;
  let stranger: Person;
  let personas: Record<string, Person>;
  const directory = uuid();
  const publicPolls: Record<string, string> = {};
  const teamPoll = uuid();
  const teamTimePoll = uuid();
  const publicTimePoll = uuid();
  const stamp = Date.now().toString(36);

  const person = async (name: string, tier: 'free' | 'pro' | 'team'): Promise<Person> => {
    const username = `${name}${stamp}`;
    // Mixed case, as people type it: the comparisons must not depend on it.
    const user = await createUser(db, { tier, username, email: `${name.toUpperCase()}.${stamp}@Example.com` });
    return { ...user, username };
  };

  const applied = async (actor: Person, ...mutations: ReturnType<typeof mutation>[]) => {
    const results = await push(db, actor, ...mutations);
    expect(
      results.map((r) => `${r.status} ${r.code ?? ''} ${r.message ?? ''}`.trim()),
      actor.username,
    ).toEqual(mutations.map(() => 'applied'));
  };

  const poll = (id: string, directoryId: string | null = null) =>
    mutation('poll.create', { id, title: `Poll ${id.slice(0, 4)}`, options: ['Yes', 'No'], directory_id: directoryId });
  const vote = (post: string) => mutation('poll.vote', { id: uuid(), post_id: post, option_index: 0 });

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await person('owner', 'team');
    editor = await person('editor', 'free');
    viewer = await person('viewer', 'free');
    stranger = await person('stranger', 'free');
    personas = { owner, editor, viewer, stranger };
    for (const name of Object.keys(personas)) publicPolls[name] = uuid();

    await applied(
      owner,
      mutation('directory.create', { id: directory, name: 'Team room' }),
      mutation('member.invite', { id: uuid(), directory_id: directory, user_email: editor.email, role: 'editor' }),
      mutation('member.invite', { id: uuid(), directory_id: directory, user_email: viewer.email, role: 'viewer' }),
      mutation('link.create', { id: uuid(), directory_id: directory, url: 'https://owner.example', title: 'Owner' }),
      mutation('event.create', {
        id: uuid(),
        title: 'Stand-up',
        starts_at: '2026-12-31T22:59:00+00:00',
        ends_at: '2026-12-31T23:29:00+00:00',
        is_task: false,
      }),
      poll(publicPolls.owner!),
      poll(teamPoll, directory),
    );
    await applied(
      editor,
      mutation('link.create', { id: uuid(), directory_id: directory, url: 'https://editor.example', title: 'Ed' }),
      poll(publicPolls.editor!),
      vote(teamPoll),
    );
    await applied(viewer, poll(publicPolls.viewer!), vote(publicPolls.owner!), vote(teamPoll));
    await applied(stranger, poll(publicPolls.stranger!), vote(publicPolls.owner!));

    // 'Find a time' polls, answered and picked: answers rows (a team poll's grid) and invitations.
    const slot = uuid();
    const slots = [
      { id: slot, start: '2031-01-01T09:00:00Z', minutes: 60 },
      { id: uuid(), day: '2031-01-02' },
    ];
    const timePoll = (id: string, directoryId: string | null = null) =>
      mutation('poll.create_time', { id, title: 'When?', time_zone: 'UTC', slots, directory_id: directoryId });
    const answer = (post: string) =>
      mutation('poll.answer', { id: uuid(), post_id: post, slot_id: slot, answer: 'yes' });
    const pick = (post: string) => mutation('poll.pick', { id: post, slot_id: slot, event_id: uuid() });
    await applied(owner, timePoll(teamTimePoll, directory));
    await applied(stranger, timePoll(publicTimePoll));
    await applied(editor, answer(teamTimePoll));
    await applied(viewer, answer(teamTimePoll), answer(publicTimePoll));
    await applied(owner, pick(teamTimePoll));
    await applied(stranger, pick(publicTimePoll));
  });
  afterAll(() => db.close());

  it('reads no other address in any synced table, directly or through sync_pull', async () => {
    const found: string[] = [];
    for (const who of Object.values(personas)) {
      const direct = await readDirectly(db, who);
      const pulled = await readByPull(db, who);
      found.push(
        ...othersAddresses(who.email, direct).map((leak) => `${who.username} select ${leak}`),
        ...othersAddresses(who.email, pulled).map((leak) => `${who.username} sync_pull ${leak}`),
      );
      // Not vacuous: every persona reads every public poll, each naming its creator by username.
      for (const rows of [direct, pulled]) {
        const polls = new Map((rows.voting_posts ?? []).map((row) => [row.id, row.created_by]));
        for (const [name, id] of Object.entries(publicPolls))
          expect(polls.get(id), name).toBe(personas[name]!.username);
        // A team time poll's grid names its voters; invitations name who picked.
        if (who !== stranger) {
          const grid = (rows.slot_answers ?? []).filter((row) => row.post_id === teamTimePoll);
          expect(grid.map((row) => row.voter_name).sort(), who.username).toEqual(
            [editor.username, viewer.username].sort(),
          );
        }
        if (who === viewer)
          expect((rows.event_invitations ?? []).map((row) => row.inviter_name).sort()).toEqual(
            [owner.username, stranger.username].sort(),
          );
      }
    }
    expect(found).toEqual([]);
  });

  it('shows the members of a directory each other’s invitation address, and nobody else', async () => {
    const invited = [editor.email.toLowerCase(), viewer.email.toLowerCase()].sort();
    for (const who of [owner, editor, viewer]) {
      const members = (await readByPull(db, who)).directory_members ?? [];
      expect(members.map((row) => row.user_email).sort(), who.username).toEqual(invited);
    }
    expect((await readDirectly(db, stranger)).directory_members).toEqual([]);
    expect((await readByPull(db, stranger)).directory_members ?? []).toEqual([]);
  });

  it('lets anon read no synced table and pull nothing', async () => {
    for (const table of syncedTableNames) {
      const read = as(db, anonymous, (sql) => sql.query(`select to_jsonb(t) as row from public.${table} t`));
      const outcome = await read.then(
        ({ rows }) => rows.length,
        (error: { code?: string }) => error.code,
      );
      expect([0, '42501'], table).toContain(outcome);
    }
    expect((await sqlError(pull(db, anonymous))).code).toBe('42501');
  });

  it('follows a username change on every device that holds the poll', async () => {
    const { cursor } = await pullAll(db, stranger);
    await applied(owner, mutation('profile.update', { username: `renamed${stamp}` }));
    const { pages } = await pullAll(db, stranger, cursor);
    const polls = pages.flatMap((page) => page.changes.voting_posts ?? []);
    expect(polls.map((row) => [row.id, row.created_by])).toEqual([[publicPolls.owner, `renamed${stamp}`]]);
    const { rows } = await db.query<{ created_by: string }>(
      'select created_by from public.voting_posts where created_by_id = $1 order by created_by',
      [owner.id],
    );
    // Its public poll, its team poll and its team time poll.
    expect(rows.map((row) => row.created_by)).toEqual(Array(3).fill(`renamed${stamp}`));
  });
});

describe('the poll creator migration', () => {
  it('replaces the address an older poll kept with the username, and sends the poll again', async () => {
    await withDbBefore('poll_creator_username', async (db) => {
      const ada = await createUser(db, { username: 'ada', email: 'ada@example.com' });
      const nameless = await createUser(db, { email: 'nameless@example.com' });
      await db.query(`update public.user_profiles set username = null where id = $1`, [nameless.id]);
      const options = JSON.stringify([{ text: 'Yes' }, { text: 'No' }]);
      for (const who of [ada, nameless]) {
        await insertRow(db, 'voting_posts', { title: 'Old', options, created_by_id: who.id });
      }
      // A tombstone keeps its address too until the migration.
      await db.query(`update public.voting_posts set deleted_at = now() where created_by_id = $1`, [nameless.id]);
      const before = await db.query<{ created_by: string; txid: string }>(
        'select created_by, txid::text from public.voting_posts order by created_by',
      );
      expect(before.rows.map((row) => row.created_by)).toEqual(['ada@example.com', 'nameless@example.com']);
      await migrate(db);
      const { rows } = await db.query<{ created_by: string | null; moved: boolean }>(
        `select created_by, txid > all ($1::xid8[]) as moved from public.voting_posts order by created_by_id = $2`,
        [before.rows.map((row) => row.txid), ada.id],
      );
      expect(rows).toEqual([
        { created_by: null, moved: true },
        { created_by: 'ada', moved: true },
      ]);
    });
  });
});
