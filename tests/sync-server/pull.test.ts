import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError } from '../support/db.ts';
import { actAs, openClient } from '../support/pg-clients.ts';
import { idsOf, makeDirectory, makeLinks, mutation, pull, pullAll, push, uuid } from './sync.ts';

const tables = [
  'calendar_events',
  'directory_members',
  'event_invitations',
  'link_directories',
  'saved_links',
  'slot_answers',
  'user_profiles',
  'user_votes',
  'voting_posts',
];

describe.each(dbKinds)('sync_pull (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('pulls everything from scratch, then only what changed', async () => {
    const user = await createUser(db);
    const other = await createUser(db);
    const dir = await makeDirectory(db, user);
    await makeLinks(db, dir.id, 3);
    await makeLinks(db, (await makeDirectory(db, other)).id, 2);
    const first = await pull(db, user);
    expect(first.reset).toBe(false);
    expect(first.more).toBe(false);
    expect(Object.keys(first.changes).sort()).toEqual(tables);
    expect(first.changes.user_profiles!.map((r) => r.id)).toEqual([user.id]);
    expect(first.changes.link_directories!.map((r) => r.id)).toEqual([dir.id]);
    expect(first.changes.saved_links).toHaveLength(3);
    expect(first.purge.directory_ids).toEqual([]);

    const link = uuid();
    await push(
      db,
      user,
      mutation('link.create', { id: link, directory_id: dir.id, url: 'https://new.example', title: 'New' }),
    );
    const second = await pull(db, user, first.cursor);
    expect(second.reset).toBe(false);
    expect(second.changes.saved_links!.map((r) => r.id)).toContain(link);
    expect(second.changes.saved_links!.length).toBeLessThan(4);
    expect(second.changes.link_directories).toEqual([]);
    const third = await pull(db, user, second.cursor);
    expect(third.changes.saved_links!.map((r) => r.id)).not.toContain(first.changes.saved_links![0]!.id);
  });

  it('delivers tombstones so the client can delete', async () => {
    const user = await createUser(db);
    const dir = await makeDirectory(db, user);
    const link = uuid();
    await push(
      db,
      user,
      mutation('link.create', { id: link, directory_id: dir.id, url: 'https://gone.example', title: 'Gone' }),
    );
    const { cursor } = await pull(db, user);
    await push(db, user, mutation('link.delete', { id: link }));
    const next = await pull(db, user, cursor);
    const row = next.changes.saved_links!.find((r) => r.id === link);
    expect(row?.deleted_at).toBeTruthy();
    // A fresh pull does not bother with tombstones.
    expect(idsOf([await pull(db, user)], 'saved_links')).not.toContain(link);
  });

  it('pages with a small limit, delivering every row at least once and terminating', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    await makeLinks(db, dir.id, 23);
    const { pages, cursor } = await pullAll(db, user, null, 4);
    expect(pages.length).toBeGreaterThanOrEqual(6);
    for (const page of pages) expect(Object.values(page.changes).flat().length).toBeLessThanOrEqual(4);
    expect(idsOf(pages, 'saved_links')).toHaveLength(23);
    expect(idsOf(pages, 'link_directories')).toEqual([dir.id]);

    // Changes made between pages are not lost: they come in a later page or the next pull.
    const mid = await pull(db, user, null, 5);
    const late = uuid();
    await push(
      db,
      user,
      mutation('link.create', { id: late, directory_id: dir.id, url: 'https://late.example', title: 'Late' }),
    );
    const rest = await pullAll(db, user, mid.cursor, 5);
    const after = await pullAll(db, user, rest.cursor, 5);
    const seen = idsOf([mid, ...rest.pages, ...after.pages], 'saved_links');
    expect(seen).toHaveLength(24);
    expect(seen).toContain(late);
    const quiet = await pull(db, user, cursor, 4);
    expect(quiet.more).toBe(false);
  });

  it('sends pages of at most 10,000 rows, whatever is asked', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    await makeLinks(db, dir.id, 10_050);
    const first = await pull(db, user, null, 50_000);
    expect(first.more).toBe(true);
    expect(Object.values(first.changes).flat()).toHaveLength(10_000);
    const { pages } = await pullAll(db, user, first.cursor, 50_000);
    expect(idsOf([first, ...pages], 'saved_links')).toHaveLength(10_050);
  });

  it('brings an invited directory with its content, and purges it on removal', async () => {
    const owner = await createUser(db, { tier: 'team' });
    const invitee = await createUser(db);
    const dir = await makeDirectory(db, owner, 'Shared');
    await makeLinks(db, dir.id, 3);
    const poll = uuid();
    await push(
      db,
      owner,
      mutation('poll.create', { id: poll, title: 'Team poll', options: ['a', 'b'], directory_id: dir.id }),
    );
    const start = await pull(db, invitee);
    expect(start.changes.link_directories).toEqual([]);

    const member = uuid();
    await push(
      db,
      owner,
      mutation('member.invite', { id: member, directory_id: dir.id, user_email: invitee.email, role: 'viewer' }),
    );
    const invited = await pullAll(db, invitee, start.cursor, 2);
    expect(idsOf(invited.pages, 'link_directories')).toEqual([dir.id]);
    expect(idsOf(invited.pages, 'saved_links')).toHaveLength(3);
    expect(idsOf(invited.pages, 'directory_members')).toEqual([member]);
    expect(idsOf(invited.pages, 'voting_posts')).toContain(poll);
    expect(invited.pages[0]!.purge.directory_ids).toEqual([]);

    await push(db, owner, mutation('member.remove', { id: member }));
    const removed = await pull(db, invitee, invited.cursor);
    expect(removed.purge.directory_ids).toEqual([dir.id]);
    expect(removed.changes.saved_links).toEqual([]);
    const later = await pull(db, invitee, removed.cursor);
    expect(later.purge.directory_ids).toEqual([]);
  });

  it('refuses an anonymous caller instead of answering empty', async () => {
    const error = await sqlError(as(db, anonymous, (sql) => sql.query('select public.sync_pull(null, 10)')));
    expect(error.code).toBe('42501');
    const noUser = await sqlError(
      as(db, { role: 'authenticated' }, (sql) => sql.query('select public.sync_pull(null, 10)')),
    );
    expect(noUser.code).toBe('42501');
  });

  it('answers a malformed, unknown or foreign cursor with reset and a full pull', async () => {
    const user = await createUser(db);
    const other = await createUser(db);
    const dir = await makeDirectory(db, user);
    const foreign = (await pull(db, other)).cursor;
    const future = Buffer.from(JSON.stringify({ v: 1, u: user.id, since: '999999999999', dirs: [] })).toString(
      'base64',
    );
    for (const cursor of ['garbage!', Buffer.from('{"v":2}').toString('base64'), foreign, future]) {
      const answer = await pull(db, user, cursor);
      expect(answer.reset, cursor).toBe(true);
      expect(answer.changes.link_directories!.map((r) => r.id)).toEqual([dir.id]);
      expect((await pull(db, user, answer.cursor)).reset).toBe(false);
    }
  });

  it.runIf(kind === 'postgres')(
    'delivers a row whose transaction commits after a pull that did not see it',
    async () => {
      const user = await createUser(db, { tier: 'pro' });
      const dir = await makeDirectory(db, user);
      await pull(db, user);
      const t1 = await openClient(db);
      try {
        await t1.query('begin');
        await actAs(t1, user);
        const slow = uuid();
        await t1.query(
          `insert into public.saved_links (id, directory_id, url, title) values ($1, $2, 'https://slow.example', 'Slow')`,
          [slow, dir.id],
        );
        // Meanwhile another transaction commits a later change, and a pull runs.
        const fast = uuid();
        await push(
          db,
          user,
          mutation('link.create', { id: fast, directory_id: dir.id, url: 'https://fast.example', title: 'Fast' }),
        );
        const during = await pull(db, user, null, 1000, { settle: false });
        expect(idsOf([during], 'saved_links')).toEqual([fast]);
        await t1.query('commit');
        const next = await pull(db, user, during.cursor);
        expect(idsOf([next], 'saved_links')).toContain(slow);
      } finally {
        await t1.end();
      }
    },
  );
});
