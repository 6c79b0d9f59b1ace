import { beforeEach, expect, it } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { applyPullPage, readPullState } from '../../src/sync/apply-pull.ts';
import type { PullAnswer } from '../../src/backend/sync-transport.ts';
import { ctx, freshDb, makeDirectory, makeLink, makeMember, makePoll, uuid } from '../data/helpers.ts';

let db: LinkboardDb;
const pro = ctx({ tier: 'pro' });
beforeEach(() => {
  db = freshDb();
});

function page(overrides: Partial<PullAnswer> = {}): PullAnswer {
  return { cursor: '7', more: false, reset: false, changes: {}, purge: { directory_ids: [] }, ...overrides };
}

const asWire = <T extends object>(rows: T[]) => rows as unknown as Record<string, unknown>[];

it('rebase keeps an optimistic change over an older pulled row', async () => {
  const dir = makeDirectory();
  const link = makeLink({ directory_id: dir.id, title: 'Old', notes: null });
  await db.link_directories.put(dir);
  await db.saved_links.put(link);
  await mutate(db, 'link.update', { id: link.id, title: 'Mine' }, pro);
  await applyPullPage(
    db,
    page({ changes: { saved_links: asWire([{ ...link, title: 'Old', notes: 'theirs', txid: '5' }]) } }),
    { clear: false, ctx: pro },
  );
  expect(await db.saved_links.get(link.id)).toMatchObject({ title: 'Mine', notes: 'theirs', txid: '5' });
  expect(await readPullState(db)).toEqual({ cursor: '7', reset: false });
});

it('rebase counts a pending vote once over a pulled poll', async () => {
  const poll = makePoll();
  await db.voting_posts.put(poll);
  await mutate(db, 'poll.vote', { id: uuid(), post_id: poll.id, option_index: 0 }, pro);
  const pulled = {
    ...poll,
    options: [
      { text: 'Pizza', votes: 4 },
      { text: 'Sushi', votes: 1 },
    ],
  };
  await applyPullPage(db, page({ changes: { voting_posts: asWire([pulled]) } }), { clear: false, ctx: pro });
  await applyPullPage(db, page({ changes: {} }), { clear: false, ctx: pro });
  expect((await db.voting_posts.get(poll.id))?.options.map((o) => o.votes)).toEqual([5, 1]);
});

it('tombstones delete rows; a tombstoned or purged directory takes its content', async () => {
  const a = makeDirectory();
  const b = makeDirectory();
  const poll = makePoll({ directory_id: b.id });
  const link = makeLink({ directory_id: a.id });
  await db.link_directories.bulkPut([a, b]);
  await db.saved_links.bulkPut([link, makeLink({ directory_id: b.id })]);
  await db.directory_members.put(makeMember({ directory_id: b.id }));
  await db.voting_posts.put(poll);
  await applyPullPage(
    db,
    page({
      changes: { saved_links: asWire([{ ...link, deleted_at: '2026-03-10T00:00:00Z' }]) },
      purge: { directory_ids: [b.id] },
    }),
    { clear: false, ctx: pro },
  );
  expect(await db.link_directories.toArray()).toHaveLength(1);
  expect([await db.saved_links.count(), await db.directory_members.count(), await db.voting_posts.count()]).toEqual([
    0, 0, 0,
  ]);
  await applyPullPage(
    db,
    page({ changes: { link_directories: asWire([{ ...a, deleted_at: '2026-03-10T00:00:00Z' }]) } }),
    { clear: false, ctx: pro },
  );
  expect(await db.link_directories.count()).toBe(0);
});

it('reset clears the synced tables but keeps the outbox, and rebases it', async () => {
  await db.link_directories.put(makeDirectory({ name: 'Stale' }));
  const id = uuid();
  await mutate(
    db,
    'event.create',
    { id, title: 'Mine', starts_at: '2026-03-16T09:00:00Z', ends_at: null, is_task: false },
    pro,
  );
  const fresh = makeDirectory({ name: 'Fresh' });
  await applyPullPage(db, page({ reset: true, changes: { link_directories: asWire([fresh]) } }), {
    clear: false,
    ctx: pro,
  });
  expect((await db.link_directories.toArray()).map((d) => d.name)).toEqual(['Fresh']);
  expect(await db.outbox.count()).toBe(1);
  expect(await db.calendar_events.get(id)).toMatchObject({ title: 'Mine' });
});
