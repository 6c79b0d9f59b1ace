/**
 * A push answer settles exactly the entries the push sent that are still queued: read as one run
 * of the queue between the first and the last sent (apply-push.ts), so the entries between them
 * that were not sent (a failed one) or came after stay queued, and one discarded meanwhile is not
 * counted.
 */
import { expect, it } from 'vitest';
import { keptCount } from '../../src/data/counts.ts';
import { mutate, mutateMany } from '../../src/data/mutate.ts';
import { localFields } from '../../src/data/synced-tables.ts';
import { applyPushAnswer } from '../../src/sync/apply-push.ts';
import { countKeysRead, ctx, freshDb, watchTable } from '../data/helpers.ts';
import { makeDirectory, uuid } from '../support/builders.ts';

const pro = ctx({ tier: 'pro' });

it('settles the sent entries still queued, and leaves a failed one between them and later ones queued', async () => {
  const db = freshDb();
  const dir = makeDirectory({ owner_id: pro.userId });
  await db.link_directories.put(dir);
  for (let i = 0; i < 6; i += 1) {
    const args = { id: uuid(), directory_id: dir.id, url: `https://a.test/${i}`, title: `L${i}` };
    await mutate(db, 'link.create', args, pro);
  }
  const queue = await db.outbox.orderBy('seq').toArray();
  // The third failed earlier (not sent); the fifth is discarded while the push is on its way.
  await db.outbox.update(queue[2]!.seq!, { status: 'failed', last_error: 'Failed to save link. Please try again.' });
  const sent = [queue[0]!, queue[1]!, queue[3]!, queue[4]!];
  await db.outbox.delete(queue[4]!.seq!);
  const links = await db.saved_links.toArray();
  const rowOf = (entry: (typeof queue)[number]) => ({
    ...links.find((link) => link.id === (entry.args as { id: string }).id)!,
    txid: '9',
  });

  const outcome = await applyPushAnswer(
    db,
    sent,
    { results: sent.map((entry) => ({ id: entry.id, status: 'applied', rows: { saved_links: [rowOf(entry)] } })) },
    pro,
  );

  expect(outcome).toEqual({ settled: 3, rejected: [] });
  const left = await db.outbox.orderBy('seq').toArray();
  expect(left.map((entry) => entry.id)).toEqual([queue[2]!.id, queue[5]!.id]);
  expect(left[0]).toMatchObject({ status: 'failed' });
  expect(await db.saved_links.get((queue[0]!.args as { id: string }).id)).toMatchObject({ txid: '9' });
});

it('reads each link of a 500-link answer once: compared with it, then written with its counts from that read', async () => {
  const db = freshDb();
  // Below Dexie's own middlewares: what IndexedDB itself is asked for.
  const keysRead = countKeysRead(db, 'saved_links', -10);
  const dir = makeDirectory({ owner_id: pro.userId });
  await db.link_directories.put(dir);
  const steps = Array.from({ length: 500 }, (_, i) => ({
    name: 'link.create' as const,
    args: { id: uuid(), directory_id: dir.id, url: `https://many.test/${i}`, title: `Many ${i}` },
  }));
  await mutateMany(db, steps, pro);
  const sent = await db.outbox.orderBy('seq').toArray();
  // The server's rows: the fields it sends (no local keys), its txid and its time.
  const local = localFields('saved_links');
  const byId = new Map((await db.saved_links.toArray()).map((row) => [row.id, row]));
  const serverRow = (id: string) => {
    const row: Record<string, unknown> = {
      ...byId.get(id)!,
      txid: '77',
      updated_at: '2026-03-01T10:00:00.123456+00:00',
    };
    for (const field of local) delete row[field];
    return row;
  };

  keysRead.n = 0;
  const outcome = await applyPushAnswer(
    db,
    sent,
    {
      results: sent.map((entry) => ({
        id: entry.id,
        status: 'applied',
        rows: { saved_links: [serverRow((entry.args as { id: string }).id)] },
      })),
    },
    pro,
  );

  expect(outcome).toEqual({ settled: 500, rejected: [] });
  expect(keysRead.n).toBe(500);
  const links = await db.saved_links.toArray();
  expect(links.every((row) => row.txid === '77')).toBe(true);
  expect(await keptCount(db, 'saved_links', 'directory_id', dir.id)).toBe(500);
  expect(await db.outbox.count()).toBe(0);
});

it('empties a run of 500 answered entries from the outbox in one request, not one a row', async () => {
  const db = freshDb();
  const outbox = watchTable(db, 'outbox');
  const dir = makeDirectory({ owner_id: pro.userId });
  await db.link_directories.put(dir);
  const steps = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      name: 'link.create' as const,
      args: { id: uuid(), directory_id: dir.id, url: `https://run.test/${from + i}`, title: `Run ${from + i}` },
    }));
  await mutateMany(db, steps(0, 500), pro);
  const sent = await db.outbox.orderBy('seq').toArray();
  // Queued while the push was on its way: after the run, it stays.
  await mutate(db, 'link.create', steps(500, 1)[0]!.args, pro);
  const later = (await db.outbox.orderBy('seq').last())!;
  const byId = new Map((await db.saved_links.toArray()).map((row) => [row.id, row]));

  const outcome = await applyPushAnswer(
    db,
    sent,
    {
      results: sent.map((entry) => {
        const id = (entry.args as { id: string }).id;
        return { id: entry.id, status: 'applied', rows: { saved_links: [{ ...byId.get(id)!, txid: '78' }] } };
      }),
    },
    pro,
  );

  expect(outcome).toEqual({ settled: 500, rejected: [] });
  // The outbox's writes after the pushes were queued: the answer's, one range.
  expect(outbox.writes.filter((write) => write.type.startsWith('delete'))).toEqual([{ type: 'deleteRange', rows: 0 }]);
  expect((await db.outbox.toArray()).map((entry) => entry.id)).toEqual([later.id]);
});
