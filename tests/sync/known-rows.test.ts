/** What a sync knows it stored (KnownRows, src/sync/apply-rows.ts): a push answer's committed rows, bounded, and nothing past a cascade. */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { localFields } from '../../src/data/synced-tables.ts';
import { applyPullPage } from '../../src/sync/apply-pull.ts';
import { applyPushAnswer } from '../../src/sync/apply-push.ts';
import { mutate } from '../../src/data/mutate.ts';
import { KnownRows, RowChanges } from '../../src/sync/apply-rows.ts';
import type { PullAnswer } from '../../src/backend/sync-transport.ts';
import { ctx, freshDb } from '../data/helpers.ts';
import { makeDirectory, makeLink, uuid } from '../support/builders.ts';

let db: LinkboardDb;
const pro = ctx({ tier: 'pro' });
beforeEach(() => {
  db = freshDb();
});
afterEach(() => {
  vi.restoreAllMocks();
});

function page(changes: PullAnswer['changes']): PullAnswer {
  return { cursor: '7', more: false, reset: false, changes, purge: { directory_ids: [] } };
}

const live = (row: Record<string, unknown>) => ({ row, dead: false });
const links = localFields('saved_links');

/** A link queued on the device, and the push answer the server gives it (its txid, its clock). */
async function answeredLink() {
  const dir = makeDirectory({ owner_id: pro.userId, txid: '4' });
  await db.link_directories.put(dir);
  const id = uuid();
  await mutate(db, 'link.create', { id, directory_id: dir.id, url: 'https://a.test/1', title: 'One' }, pro);
  const [entry] = await db.outbox.toArray();
  const stored = (await db.saved_links.get(id))!;
  const row = { ...stored, txid: '9', created_at: '2026-11-29T20:00:00.123456+00:00' };
  for (const key of links) delete (row as Record<string, unknown>)[key];
  const answer = { results: [{ id: entry!.id, status: 'applied' as const, rows: { saved_links: [row] } }] };
  return { dir, entry: entry!, row, answer };
}

it("knows the rows a committed push answer stored, and a later page's version of one; not a page's others", async () => {
  const { dir, entry, row, answer } = await answeredLink();
  const known = new KnownRows();
  await applyPushAnswer(db, [entry], answer, pro, known);
  expect(known.holds('saved_links', row.id, live({ ...row }), links)).toBe(true);
  expect(known.holds('saved_links', row.id, live({ ...row, title: 'Other', txid: '10' }), links)).toBe(false);
  expect(known.holds('saved_links', row.id, { row: null, dead: true }, links)).toBe(false);

  const renamed = { ...row, title: 'Renamed', txid: '10' };
  const other = makeLink({ directory_id: dir.id, owner_id: pro.userId, txid: '10' });
  await applyPullPage(db, page({ saved_links: [renamed, other] }), {
    clear: false,
    ctx: pro,
    incremental: true,
    known,
  });
  expect(known.holds('saved_links', row.id, live({ ...renamed }), links)).toBe(true);
  expect(known.holds('saved_links', row.id, live({ ...row }), links)).toBe(false);
  expect(known.holds('saved_links', other.id, live({ ...other }), links)).toBe(false);
});

it('knows nothing of a push answer whose transaction failed', async () => {
  const { entry, row, answer } = await answeredLink();
  const proto = Object.getPrototypeOf(db.saved_links) as { bulkPut(rows: unknown[]): Promise<unknown> };
  vi.spyOn(proto, 'bulkPut').mockRejectedValue(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
  const known = new KnownRows();
  await expect(applyPushAnswer(db, [entry], answer, pro, known)).rejects.toThrow('quota');
  expect(known.holds('saved_links', row.id, live({ ...row }), links)).toBe(false);
  expect(await db.outbox.count()).toBe(1);
});

it(`keeps at most ${KnownRows.MAX.toLocaleString('en')} rows`, () => {
  const dir = makeDirectory({ owner_id: pro.userId, txid: '4' });
  const rows = Array.from({ length: KnownRows.MAX + 1 }, () => makeLink({ directory_id: dir.id, txid: '5' }));
  const changes = new RowChanges();
  changes.addRows({ saved_links: rows });
  const known = new KnownRows();
  known.remember(changes, true);
  expect(known.holds('saved_links', rows[0]!.id, live({ ...rows[0]! }), links)).toBe(true);
  expect(known.holds('saved_links', rows.at(-1)!.id, live({ ...rows.at(-1)! }), links)).toBe(false);
});

it('forgets everything after a deletion that takes rows along (a directory and its links)', () => {
  const dir = makeDirectory({ owner_id: pro.userId, txid: '4' });
  const link = makeLink({ directory_id: dir.id, owner_id: pro.userId, txid: '5' });
  const known = new KnownRows();
  const first = new RowChanges();
  first.addRows({ saved_links: [link] });
  known.remember(first, true);
  expect(known.holds('saved_links', link.id, live({ ...link }), links)).toBe(true);
  const second = new RowChanges();
  second.addRows({ link_directories: [{ ...dir, deleted_at: '2026-11-29T20:00:00Z', txid: '6' }] });
  known.remember(second, false);
  expect(known.holds('saved_links', link.id, live({ ...link }), links)).toBe(false);
});
