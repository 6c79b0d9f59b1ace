import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutate } from '../../src/data/mutate.ts';
import { mutatorOf } from '../../src/data/mutators.ts';
import { applyPullPage, readPullState } from '../../src/sync/apply-pull.ts';
import type { PullAnswer } from '../../src/backend/sync-transport.ts';
import { ctx, freshDb } from '../data/helpers.ts';
import { makeDirectory, makeLink, makeMember, makePoll, uuid } from '../support/builders.ts';

let db: LinkboardDb;
const pro = ctx({ tier: 'pro' });
beforeEach(() => {
  db = freshDb();
});
afterEach(() => {
  vi.restoreAllMocks();
});

function page(overrides: Partial<PullAnswer> = {}): PullAnswer {
  return { cursor: '7', more: false, reset: false, changes: {}, purge: { directory_ids: [] }, ...overrides };
}

it('rebase keeps an optimistic change over an older pulled row', async () => {
  const dir = makeDirectory();
  const link = makeLink({ directory_id: dir.id, title: 'Old', notes: null });
  await db.link_directories.put(dir);
  await db.saved_links.put(link);
  await mutate(db, 'link.update', { id: link.id, title: 'Mine' }, pro);
  await applyPullPage(db, page({ changes: { saved_links: [{ ...link, title: 'Old', notes: 'theirs', txid: '5' }] } }), {
    clear: false,
    ctx: pro,
  });
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
  await applyPullPage(db, page({ changes: { voting_posts: [pulled] } }), { clear: false, ctx: pro });
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
      changes: { saved_links: [{ ...link, deleted_at: '2026-03-10T00:00:00Z' }] },
      purge: { directory_ids: [b.id] },
    }),
    { clear: false, ctx: pro },
  );
  expect(await db.link_directories.toArray()).toHaveLength(1);
  expect([await db.saved_links.count(), await db.directory_members.count(), await db.voting_posts.count()]).toEqual([
    0, 0, 0,
  ]);
  await applyPullPage(db, page({ changes: { link_directories: [{ ...a, deleted_at: '2026-03-10T00:00:00Z' }] } }), {
    clear: false,
    ctx: pro,
  });
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
  await applyPullPage(db, page({ reset: true, changes: { link_directories: [fresh] } }), {
    clear: false,
    ctx: pro,
  });
  expect((await db.link_directories.toArray()).map((d) => d.name)).toEqual(['Fresh']);
  expect(await db.outbox.count()).toBe(1);
  expect(await db.calendar_events.get(id)).toMatchObject({ title: 'Mine' });
});

it('re-applies only the queued mutations a page could have overwritten; all of them after a clear', async () => {
  const dir = makeDirectory();
  const [mine, other] = [makeLink({ directory_id: dir.id }), makeLink({ directory_id: dir.id })];
  await db.link_directories.put(dir);
  await db.saved_links.bulkPut([mine, other]);
  await mutate(db, 'link.update', { id: mine.id, title: 'Mine' }, pro);
  await mutate(db, 'link.create', { id: uuid(), directory_id: dir.id, url: 'https://a.example', title: 'A' }, pro);
  const update = vi.spyOn(mutatorOf('link.update'), 'apply');
  const create = vi.spyOn(mutatorOf('link.create'), 'apply');
  const pull = (overrides: Partial<PullAnswer>, clear = false) =>
    applyPullPage(db, page(overrides), { clear, ctx: pro });

  // A page of unrelated rows leaves the pending change alone: it was not overwritten.
  await pull({ changes: { saved_links: [{ ...other, title: 'Theirs', txid: '6' }] } });
  await pull({ changes: { link_directories: [makeDirectory()] } });
  expect(update).not.toHaveBeenCalled();
  expect(create).not.toHaveBeenCalled();
  expect(await db.saved_links.get(mine.id)).toMatchObject({ title: 'Mine' });

  // The row itself, its directory being purged, or a clear re-apply it.
  await pull({ changes: { saved_links: [{ ...mine, title: 'Old', txid: '7' }] } });
  expect(update).toHaveBeenCalledTimes(1);
  expect(await db.saved_links.get(mine.id)).toMatchObject({ title: 'Mine', txid: '7' });
  await pull({ reset: true, changes: { saved_links: [{ ...mine, title: 'Old' }] } });
  expect(update).toHaveBeenCalledTimes(2);
  expect(await db.saved_links.get(mine.id)).toMatchObject({ title: 'Mine' });
  await pull({ changes: { saved_links: [{ ...mine, title: 'Old' }] } }, true);
  expect(update).toHaveBeenCalledTimes(3);
  expect(create).toHaveBeenCalledTimes(2);
  // A purged directory: the link created in it is re-applied (until the server refuses it); the
  // update of a link that went with the directory too, as a no-op (its row is gone).
  await pull({ purge: { directory_ids: [dir.id] } });
  expect(create).toHaveBeenCalledTimes(3);
  expect(update).toHaveBeenCalledTimes(4);
  expect(await db.saved_links.get(mine.id)).toBeUndefined();
});
