/**
 * A push answer re-applies only the queued mutations its canonical rows may have overwritten:
 * re-applying the whole queue after every batch made pushing a long queue quadratic (1,000
 * queued links: 4,500 re-applications, over a second of the 2 s bar in docs/bench.md).
 */
import { afterEach, expect, it, vi } from 'vitest';
import { mutate } from '../../src/data/mutate.ts';
import { mutators } from '../../src/data/mutators.ts';
import { applyPushAnswer } from '../../src/sync/apply-push.ts';
import { ctx, freshDb } from '../data/helpers.ts';
import { makeDirectory, makeLink, makePoll, uuid } from '../support/builders.ts';

const pro = ctx({ tier: 'pro' });

afterEach(() => {
  vi.restoreAllMocks();
});

it('re-applies only the queued mutations that touch what the answer wrote', async () => {
  const db = freshDb();
  const dir = makeDirectory({ owner_id: pro.userId });
  await db.link_directories.put(dir);
  const ids: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const id = uuid();
    ids.push(id);
    await mutate(db, 'link.create', { id, directory_id: dir.id, url: `https://a.test/${i}`, title: `L${i}` }, pro);
  }
  await mutate(db, 'link.update', { id: ids[0]!, title: 'Renamed' }, pro);
  const queue = await db.outbox.orderBy('seq').toArray();
  const createApply = vi.spyOn(mutators['link.create'], 'apply');
  const updateApply = vi.spyOn(mutators['link.update'], 'apply');

  const first = await db.saved_links.get(ids[0]!);
  await applyPushAnswer(
    db,
    [queue[0]!],
    {
      results: [
        {
          id: queue[0]!.id,
          status: 'applied',
          rows: { saved_links: [{ ...first!, title: 'L0', txid: '9' }] },
        },
      ],
    },
    pro,
  );
  expect(createApply).not.toHaveBeenCalled();
  expect(updateApply).toHaveBeenCalledTimes(1);
  expect(await db.saved_links.get(ids[0]!)).toMatchObject({ title: 'Renamed', txid: '9' });
  expect(await db.outbox.count()).toBe(5);
});

it('still re-applies a pending delete of the directory a written row sits in, and votes on a written poll', async () => {
  const db = freshDb();
  const dir = makeDirectory({ owner_id: pro.userId });
  const poll = makePoll();
  await db.link_directories.put(dir);
  await db.voting_posts.put(poll);
  const link = uuid();
  await mutate(db, 'link.create', { id: link, directory_id: dir.id, url: 'https://a.test', title: 'A' }, pro);
  await mutate(db, 'directory.delete', { id: dir.id }, pro);
  await mutate(db, 'poll.vote', { id: uuid(), post_id: poll.id, option_index: 0 }, pro);
  const [create] = await db.outbox.orderBy('seq').toArray();
  const row = makeLink({ id: link, directory_id: dir.id, url: 'https://a.test', title: 'A', owner_id: pro.userId });
  await applyPushAnswer(
    db,
    [create!],
    {
      results: [
        {
          id: create!.id,
          status: 'applied',
          rows: {
            saved_links: [{ ...row, txid: '9' }],
            voting_posts: [{ ...poll, txid: '9' }],
          },
        },
      ],
    },
    pro,
  );
  expect(await db.saved_links.get(link)).toBeUndefined();
  expect((await db.voting_posts.get(poll.id))?.options[0]?.votes).toBe(poll.options[0]!.votes + 1);
});
