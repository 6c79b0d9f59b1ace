/** What a sync knows it stored (KnownRows, src/sync/apply-rows.ts): only committed rows, and nothing past a cascade. */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { LinkboardDb } from '../../src/data/db.ts';
import { localFields } from '../../src/data/synced-tables.ts';
import { applyPullPage } from '../../src/sync/apply-pull.ts';
import { KnownRows, RowChanges } from '../../src/sync/apply-rows.ts';
import type { PullAnswer } from '../../src/backend/sync-transport.ts';
import { ctx, freshDb } from '../data/helpers.ts';
import { makeDirectory, makeLink } from '../support/builders.ts';

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

it('knows the rows of a committed page, as they were, and not once changed', async () => {
  const dir = makeDirectory({ owner_id: pro.userId, txid: '4' });
  const link = makeLink({ directory_id: dir.id, owner_id: pro.userId, txid: '5' });
  const known = new KnownRows();
  await applyPullPage(db, page({ link_directories: [dir], saved_links: [link] }), {
    clear: false,
    ctx: pro,
    incremental: true,
    known,
  });
  expect(known.holds('saved_links', link.id, live({ ...link }), links)).toBe(true);
  expect(known.holds('saved_links', link.id, live({ ...link, title: 'Other', txid: '6' }), links)).toBe(false);
  expect(known.holds('saved_links', link.id, { row: null, dead: true }, links)).toBe(false);
});

it('knows nothing of a page whose transaction failed', async () => {
  const dir = makeDirectory({ owner_id: pro.userId, txid: '4' });
  await db.link_directories.put(dir);
  const link = makeLink({ directory_id: dir.id, owner_id: pro.userId, txid: '5' });
  const proto = Object.getPrototypeOf(db.saved_links) as { bulkPut(rows: unknown[]): Promise<unknown> };
  vi.spyOn(proto, 'bulkPut').mockRejectedValue(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
  const known = new KnownRows();
  await expect(
    applyPullPage(db, page({ saved_links: [link] }), { clear: false, ctx: pro, incremental: true, known }),
  ).rejects.toThrow('quota');
  expect(known.holds('saved_links', link.id, live({ ...link }), links)).toBe(false);
});

it('forgets everything after a deletion that takes rows along (a directory and its links)', () => {
  const dir = makeDirectory({ owner_id: pro.userId, txid: '4' });
  const link = makeLink({ directory_id: dir.id, owner_id: pro.userId, txid: '5' });
  const known = new KnownRows();
  const first = new RowChanges();
  first.addRows({ saved_links: [link] });
  known.remember(first);
  expect(known.holds('saved_links', link.id, live({ ...link }), links)).toBe(true);
  const second = new RowChanges();
  second.addRows({ link_directories: [{ ...dir, deleted_at: '2026-11-29T20:00:00Z', txid: '6' }] });
  known.remember(second);
  expect(known.holds('saved_links', link.id, live({ ...link }), links)).toBe(false);
});
