/**
 * A pull from scratch walks the tables (private.sync_scratch_page, docs/scale.md): table by table
 * in the registry's order, a directory's links by (directory, id), each page from the previous
 * page's last key. Rows changed while the pages stream come with the pull after them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { syncedTableNames } from '../../src/data/synced-tables.ts';
import { createUser, dbKinds, freshDb } from '../support/db.ts';
import { makeDirectory, makeLinks, mutation, pull, pullAll, push, uuid, type PullAnswer, type Row } from './sync.ts';

type Held = Map<string, Map<string, Row>>;

/** What a device holds after applying `pages` in order: live rows put, tombstones deleted. */
function apply(held: Held, pages: PullAnswer[]): Held {
  for (const page of pages) {
    for (const [table, rows] of Object.entries(page.changes)) {
      const kept = held.get(table) ?? new Map<string, Row>();
      held.set(table, kept);
      for (const row of rows) {
        if (row.deleted_at) kept.delete(row.id);
        else kept.set(row.id, row);
      }
    }
  }
  return held;
}

const decode = (cursor: string) =>
  JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as Record<string, unknown>;
const encode = (cursor: unknown) => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64');

describe.each(dbKinds)('sync_pull from scratch, walked (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('sends every live row once, table by table, a directory’s links by directory then id', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dirs = [await makeDirectory(db, user, 'A'), await makeDirectory(db, user, 'B')];
    for (const dir of dirs) await makeLinks(db, dir.id, 7);
    await makeLinks(db, (await makeDirectory(db, await createUser(db))).id, 5);
    const { pages } = await pullAll(db, user, null, 3);
    const order = pages.flatMap((page) =>
      syncedTableNames.flatMap((table) => (page.changes[table] ?? []).map((row) => ({ table, row }))),
    );
    expect(order.map(({ table }) => syncedTableNames.indexOf(table))).toEqual(
      order.map(({ table }) => syncedTableNames.indexOf(table)).sort((a, b) => a - b),
    );
    const links = order.filter(({ table }) => table === 'saved_links').map(({ row }) => row);
    const key = (row: Row) => `${String(row.directory_id)} ${row.id}`;
    expect(links.map(key)).toEqual(links.map(key).sort());
    expect(new Set(links.map((row) => row.id)).size).toBe(14);
    expect(links).toHaveLength(14);
    // A page's cursor says where the walk stopped: its last row (pages of 3: the profile and the
    // directories, then 3 links a page).
    expect((decode(pages[3]!.cursor).page as { walk: unknown }).walk).toEqual([
      'saved_links',
      links[8]!.directory_id,
      links[8]!.id,
    ]);
  });

  it('loses no row changed while the pages stream: the pull after them brings it', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dirs = [await makeDirectory(db, user, 'A'), await makeDirectory(db, user, 'B')].sort((a, b) =>
      a.id < b.id ? -1 : 1,
    );
    for (const dir of dirs) await makeLinks(db, dir.id, 6);
    const first = await pull(db, user, null, 6);
    // After the profile, both directories and 3 links of the first directory: the second's are ahead.
    const sent = first.changes.saved_links!.map((row) => row.id);
    expect(first.changes.saved_links!.every((row) => row.directory_id === dirs[0]!.id)).toBe(true);
    const ahead = await db.query<{ id: string }>(
      'select id from public.saved_links where directory_id = $1 order by id',
      [dirs[1]!.id],
    );
    const [moved, removed] = ahead.rows.map((row) => row.id);
    const added = uuid();
    await push(
      db,
      user,
      mutation('link.update', { id: sent[0], title: 'Renamed while paging' }),
      mutation('link.create', { id: added, directory_id: dirs[0]!.id, url: 'https://added.example', title: 'Added' }),
      mutation('link.delete', { id: removed }),
    );
    // A link moved from the directory ahead to the one behind (as the superuser: no mutation moves).
    await db.query('update public.saved_links set directory_id = $1 where id = $2', [dirs[0]!.id, moved]);
    const rest = await pullAll(db, user, first.cursor, 4);
    const after = await pullAll(db, user, rest.cursor, 4);
    const held = apply(apply(new Map(), [first, ...rest.pages]), after.pages);
    const { rows: live } = await db.query<{ id: string; title: string; directory_id: string }>(
      'select id, title, directory_id from public.saved_links where directory_id = any ($1) and deleted_at is null',
      [dirs.map((dir) => dir.id)],
    );
    const device = [...held.get('saved_links')!.values()];
    const shape = (rows: readonly { id: string; [key: string]: unknown }[]) =>
      rows.map((row) => `${row.id} ${String(row.directory_id)} ${String(row.title)}`).sort();
    expect(shape(device)).toEqual(shape(live));
    expect(held.get('saved_links')!.get(sent[0]!)?.title).toBe('Renamed while paging');
    expect(held.get('saved_links')!.has(added)).toBe(true);
    expect(held.get('saved_links')!.has(removed!)).toBe(false);
    expect(held.get('saved_links')!.get(moved!)?.directory_id).toBe(dirs[0]!.id);
  });

  it('costs a page its own rows, not the position it starts at', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dirs: Row[] = [];
    for (let i = 0; i < 40; i += 1) dirs.push(await makeDirectory(db, user, `D${i}`));
    for (const dir of dirs) await makeLinks(db, dir.id, 50);
    await db.query('analyze public.saved_links');
    // The buffers PostgreSQL touched for one page of 100 links (the function's own queries with
    // it), started at the first link of a directory: each page measured holds the same rows, that
    // directory's 50 links and the next one's, whatever ids the directories drew.
    const blocks = async (directoryId: string) => {
      type Plan = { Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }[];
      const { rows } = await db.query<{ 'QUERY PLAN': string | Plan }>(
        `explain (analyze, buffers, format json)
         select * from private.sync_scratch_page($1, $2, $3, $4, $5, $6, 100)`,
        [
          user.id,
          user.email,
          dirs.map((dir) => dir.id),
          'saved_links',
          directoryId,
          '00000000-0000-0000-0000-000000000000',
        ],
      );
      const plan = rows[0]!['QUERY PLAN'];
      const top = (typeof plan === 'string' ? (JSON.parse(plan) as Plan) : plan)[0]!.Plan;
      return top['Shared Hit Blocks'] + top['Shared Read Blocks'];
    };
    const order = dirs.map((dir) => String(dir.id)).sort();
    // A page's buffers vary with how its rows fall on the table's and the index's pages (13 to 97
    // for the same shape), and the first call also reads the catalog: so one call warms, and ten
    // pages at the start of the walk are set against ten near its end (the last two, which run
    // off the table's end, left out).
    await blocks(order[0]!);
    const median = async (directoryIds: string[]) => {
      const counts: number[] = [];
      for (const id of directoryIds) counts.push(await blocks(id));
      return counts.sort((a, b) => a - b)[counts.length >> 1]!;
    };
    const early = await median(order.slice(0, 10));
    const late = await median(order.slice(-12, -2));
    expect(late).toBeLessThanOrEqual(early * 2);
  });

  it('goes on from a page cursor of before the walk, and resets on a walk it cannot read', async () => {
    const user = await createUser(db, { tier: 'pro' });
    const dir = await makeDirectory(db, user);
    await makeLinks(db, dir.id, 5);
    const first = await pull(db, user, null, 2);
    const cursor = decode(first.cursor) as { page: { floor: string }; [key: string]: unknown };
    // A page cursor as the txid-ordered pull wrote it: after the first row of the account.
    const { rows } = await db.query<{ txid: string }>('select txid::text from public.user_profiles where id = $1', [
      user.id,
    ]);
    const before = { ...cursor, page: { floor: cursor.page.floor, after: [rows[0]!.txid, 'user_profiles', user.id] } };
    const { pages } = await pullAll(db, user, encode(before), 10);
    expect(pages[0]!.reset).toBe(false);
    expect(pages.flatMap((page) => page.changes.saved_links!)).toHaveLength(5);
    const bad = { ...cursor, page: { floor: cursor.page.floor, walk: ['not_a_table', null, user.id] } };
    const reset = await pull(db, user, encode(bad), 1000);
    expect(reset.reset).toBe(true);
    expect(reset.changes.saved_links).toHaveLength(5);
  });
});
