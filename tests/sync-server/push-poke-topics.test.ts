/**
 * The topics a push pokes (docs/sync-protocol.md, "Poke"; supabase/schemas/sync_poke.sql), read
 * from the realtime.messages sync_push writes in its transaction: the pusher when anything
 * applied, the owner and confirmed live members of every directory an applied mutation touched (a
 * member the push removed too), the voting board for a public poll, nobody for a rejected push; a
 * run of new links (sync_push_link_run) and a push of several kinds poke as their mutations one by
 * one would. And the server's own callers of sync_poke_topics (link checks, previews) get the
 * same topics for the same answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb, type Actor } from '../support/db.ts';
import { makeDirectory, mutation, push, uuid, type MutationResult, type Row } from './sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;

describe.each(dbKinds)('the topics a push pokes (%s)', (kind) => {
  let db: Db;
  let owner: User;
  let editor: User;
  let viewer: User;
  let stranger: User;
  let dir: Row;
  let viewerMember: string;

  /** Pushes as `actor` and answers the topics its transaction broadcast `poke` on, sorted. */
  async function poked(actor: User, ...mutations: unknown[]): Promise<{ topics: string[]; results: MutationResult[] }> {
    await db.query("delete from realtime.messages where event = 'poke'");
    const results = await push(db, actor, ...mutations);
    const { rows } = await db.query<{ topic: string }>(
      "select topic from realtime.messages where event = 'poke' order by topic",
    );
    return { topics: rows.map((row) => row.topic), results };
  }
  const user = (u: User) => `user:${u.id}`;
  const sorted = (...topics: string[]) => [...topics].sort();

  beforeAll(async () => {
    db = await freshDb(kind);
    [owner, editor, viewer, stranger] = await Promise.all([
      createUser(db, { tier: 'team' }),
      createUser(db),
      createUser(db),
      createUser(db, { tier: 'pro' }),
    ]);
    dir = await makeDirectory(db, owner, 'Shared');
    viewerMember = uuid();
    const invited = await push(
      db,
      owner,
      mutation('member.invite', { id: uuid(), directory_id: dir.id, user_email: editor.email, role: 'editor' }),
      mutation('member.invite', { id: viewerMember, directory_id: dir.id, user_email: viewer.email, role: 'viewer' }),
    );
    expect(invited.map((result) => result.status)).toEqual(['applied', 'applied']);
  });
  afterAll(() => db.close());

  const newLink = () => ({ id: uuid(), directory_id: dir.id, url: `https://poke.example/${uuid()}`, title: 'Poke' });

  it('pokes the owner and every live member for a link in a shared directory, alone or in a run', async () => {
    const everyone = sorted(user(owner), user(editor), user(viewer));
    const one = await poked(editor, mutation('link.create', newLink()));
    expect(one.results.map((result) => result.status)).toEqual(['applied']);
    expect(one.topics).toEqual(everyone);
    const links = [newLink(), newLink(), newLink()];
    const run = await poked(owner, ...links.map((link) => mutation('link.create', link)));
    expect(run.results.map((result) => result.status)).toEqual(['applied', 'applied', 'applied']);
    expect(run.topics).toEqual(everyone);
    // A deleted link still names its directory (read with its tombstone).
    expect((await poked(owner, mutation('link.delete', { id: links[0]!.id }))).topics).toEqual(everyone);
  });

  it('pokes only the pusher for their own rows, both sides for a push of both, nobody for a rejection', async () => {
    const starts = new Date(Date.now() + 86_400_000);
    const event = () => ({
      id: uuid(),
      title: 'Mine',
      starts_at: starts.toISOString(),
      ends_at: new Date(starts.getTime() + 3_600_000).toISOString(),
      is_task: false,
    });
    expect((await poked(stranger, mutation('event.create', event()))).topics).toEqual([user(stranger)]);
    const both = await poked(editor, mutation('event.create', event()), mutation('link.create', newLink()));
    expect(both.topics).toEqual(sorted(user(owner), user(editor), user(viewer)));
    const refused = await poked(stranger, mutation('link.create', newLink()));
    expect(refused.results.map((result) => result.status)).toEqual(['rejected']);
    expect(refused.topics).toEqual([]);
  });

  it('pokes the board for a public poll and its votes, not for a directory’s poll', async () => {
    const post = uuid();
    const created = await poked(stranger, mutation('poll.create', { id: post, title: 'Tabs?', options: ['a', 'b'] }));
    expect(created.topics).toEqual(['public:voting', user(stranger)]);
    const voted = await poked(editor, mutation('poll.vote', { id: uuid(), post_id: post, option_index: 0 }));
    expect(voted.topics).toEqual(['public:voting', user(editor)]);
    const team = await poked(
      owner,
      mutation('poll.create', { id: uuid(), title: 'Team', options: ['a', 'b'], directory_id: dir.id }),
    );
    expect(team.results.map((result) => result.status)).toEqual(['applied']);
    expect(team.topics).toEqual(sorted(user(owner), user(editor), user(viewer)));
  });

  it('pokes a removed member, and the server’s own sync_poke_topics names the same topics', async () => {
    const removed = await poked(owner, mutation('member.remove', { id: viewerMember }));
    expect(removed.topics).toEqual(sorted(user(owner), user(editor), user(viewer)));
    const again = await push(db, owner, mutation('link.create', newLink()));
    const { rows } = await db.query<{ topic: string }>(
      `select t as topic from private.sync_poke_topics($1::uuid, $2::jsonb) t order by t`,
      [owner.id, JSON.stringify({ results: again })],
    );
    // The viewer is no longer a member: only the owner and the editor now.
    expect(rows.map((row) => row.topic)).toEqual(sorted(user(owner), user(editor)));
    const { rows: none } = await db.query<{ topic: string }>(
      `select t as topic from private.sync_poke_topics(null, $1::jsonb) t`,
      [JSON.stringify({ results: [{ ...again[0], status: 'rejected' }] })],
    );
    expect(none).toEqual([]);
  });
});
