import { whereGroup } from '../../src/data/group-range.ts';
import { Dexie } from 'dexie';
import { beforeEach, expect, it, vi } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { mutateMany } from '../../src/data/mutate.ts';
import type { MutationStep } from '../../src/data/run-mutator.ts';
import { MutationError } from '../../src/data/mutation-error.ts';
import { FREE_LIMITS } from '../../src/domain/plans.ts';
import { watchTransactions } from '../support/watch-transactions.ts';
import { ctx, freshDb } from './helpers.ts';
import { makeDirectory, makeMember, uuid } from '../support/builders.ts';

let db: LinkboardDb;
const free = ctx();
const pro = ctx({ tier: 'pro' });
const dir = makeDirectory();

beforeEach(async () => {
  db = freshDb();
  await db.link_directories.put(dir);
});

type LinkStep = Extract<MutationStep, { name: 'link.create' }>;
const linkStep = (title: string, id = uuid()): LinkStep => ({
  name: 'link.create',
  args: { id, directory_id: dir.id, url: `https://example.com/${encodeURIComponent(title)}`, title },
});

it('applies and queues many mutations in one read-write transaction, in order', async () => {
  const seen = watchTransactions(db);
  const steps = Array.from({ length: 200 }, (_, i) => linkStep(`L${i}`));
  const { queued, refused } = await mutateMany(db, steps, pro);
  expect(seen.writes).toHaveLength(1);
  expect(refused).toEqual([]);
  expect(queued.map((row) => row.args.id)).toEqual(steps.map((step) => step.args.id));
  const outbox = await db.outbox.orderBy('seq').toArray();
  expect(outbox.map((row) => row.id)).toEqual(queued.map((row) => row.id));
  expect(queued.every((row, i) => row.seq === outbox[i]?.seq)).toBe(true);
  expect(await whereGroup(db.saved_links, 'directory_id', dir.id).count()).toBe(200);
});

it('counts the steps before each one against the plan limit', async () => {
  const limit = FREE_LIMITS.links;
  const steps = Array.from({ length: limit + 3 }, (_, i) => linkStep(`L${i}`));
  const { queued, refused } = await mutateMany(db, steps, free, { skipRefused: true });
  expect(queued).toHaveLength(limit);
  expect(refused.map((r) => r.index)).toEqual([limit, limit + 1, limit + 2]);
  expect(refused[0]?.error).toBeInstanceOf(MutationError);
  expect(await db.saved_links.count()).toBe(limit);
  expect(await db.outbox.count()).toBe(limit);
});

it('writes nothing when a step is refused, unless told to skip it', async () => {
  const bad = linkStep('B');
  const steps: LinkStep[] = [linkStep('A'), { ...bad, args: { ...bad.args, url: 'javascript:alert(1)' } }];
  await expect(mutateMany(db, steps, pro)).rejects.toBeInstanceOf(MutationError);
  expect(await db.saved_links.count()).toBe(0);
  expect(await db.outbox.count()).toBe(0);
});

it('tells the sync once, after the commit', async () => {
  const heard = vi.fn();
  db.onMutation(heard);
  await mutateMany(db, [linkStep('A'), linkStep('B'), linkStep('C')], pro);
  expect(heard).toHaveBeenCalledTimes(1);
  expect(Dexie.currentTransaction).toBeFalsy();
  expect(await mutateMany(db, [], pro)).toEqual({ queued: [], refused: [] });
  expect(heard).toHaveBeenCalledTimes(1);
});

it('writes the same rows and outbox entries as one mutate per link, refusing per link', async () => {
  const { mutate } = await import('../../src/data/mutate.ts');
  const shared = makeDirectory({ owner_id: 'someone-else', name: 'Shared' });
  await db.link_directories.put(shared);
  await db.directory_members.put(makeMember({ directory_id: shared.id, user_email: 'me@example.com', role: 'viewer' }));
  const steps: LinkStep[] = [
    linkStep('One'),
    { ...linkStep('Viewer'), args: { ...linkStep('Viewer').args, directory_id: shared.id } },
    { ...linkStep('Gone'), args: { ...linkStep('Gone').args, directory_id: uuid() } },
    { ...linkStep('Two'), args: { ...linkStep('Two').args, url: 'example.org/two', tags: [' b ', 'a', 'b'] } },
  ];
  const { queued, refused } = await mutateMany(db, steps, pro, { skipRefused: true });
  expect(refused.map((r) => [r.index, r.error.code])).toEqual([
    [1, 'forbidden'],
    [2, 'not_found'],
  ]);
  const batched = await db.saved_links.bulkGet(queued.map((row) => row.args.id as string));

  const other = freshDb();
  await other.link_directories.put(dir);
  for (const step of [steps[0]!, steps[3]!]) await mutate(other, step.name, step.args, pro);
  const single = await other.saved_links.bulkGet(queued.map((row) => row.args.id as string));
  expect(batched).toEqual(single);
  expect(queued.map((row) => row.args)).toEqual((await other.outbox.orderBy('seq').toArray()).map((row) => row.args));
});
