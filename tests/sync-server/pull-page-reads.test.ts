/**
 * A pull after a cursor reads the rows changed since it, each by its key, not the table: the
 * pulled page's rows were read with `t.id = any (ids)`, and for a page of a few hundred or
 * thousand ids the planner chose a sequential scan of the whole table, every user's rows, for
 * each page (the pull after a push of 5,000 read 130,000 links, more each round; docs/scale.md,
 * point 7). Counted by the transaction's own scans and reads of public.saved_links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, type Actor } from '../support/db.ts';
import { makeDirectory, makeLinks, pullAll, push, mutation, settled, uuid, type PullAnswer } from './sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;

const OTHERS = 20_000;
const PUSHED = 1000;

describe.each(dbKinds)('a pull after a cursor reads what changed (%s)', (kind) => {
  let db: Db;
  let user: User;
  let dir: string;
  beforeAll(async () => {
    db = await freshDb(kind);
    user = await createUser(db, { tier: 'pro' });
    dir = (await makeDirectory(db, user, 'Library')).id;
    await makeLinks(db, dir, 100);
    // Another user's library: rows of the same table the pulls must not read.
    const other = await createUser(db, { tier: 'pro' });
    await makeLinks(db, (await makeDirectory(db, other, 'Other')).id, OTHERS);
    await db.exec('analyze public.saved_links');
  });
  afterAll(() => db.close());

  /** Pulls as the user after `cursor` and answers the page and the rows it read of saved_links. */
  async function pullCounted(cursor: string): Promise<{ page: PullAnswer; scans: number; read: number }> {
    await settled(db);
    return as(db, user, async (sql) => {
      // The backend's counts not yet reported (this transaction's, and those of its earlier ones).
      const counts = async () =>
        (
          await sql.query<{ scans: number; read: number }>(
            `select coalesce(sum(seq_scan), 0)::int as scans,
                    (coalesce(sum(seq_tup_read), 0) + coalesce(sum(idx_tup_fetch), 0))::int as read
             from pg_stat_xact_user_tables where relid = 'public.saved_links'::regclass`,
          )
        ).rows[0]!;
      const before = await counts();
      const { rows } = await sql.query<{ r: PullAnswer }>('select public.sync_pull($1, 5000) as r', [cursor]);
      const after = await counts();
      return { page: rows[0]!.r, scans: after.scans - before.scans, read: after.read - before.read };
    });
  }

  it('reads none of the links with nothing changed, and what a push wrote after it by key, not the table', async () => {
    const first = await pullAll(db, user, null, 5000);
    expect(first.pages.flatMap((page) => page.changes.saved_links ?? [])).toHaveLength(100);

    const idle = await pullCounted(first.cursor);
    expect(idle.page.changes.saved_links).toEqual([]);
    expect(idle.scans).toBe(0);
    expect(idle.read).toBeLessThan(50);

    const links = Array.from({ length: PUSHED }, (_, i) =>
      mutation('link.create', { id: uuid(), directory_id: dir, url: `https://reads.example/${i}`, title: `New ${i}` }),
    );
    // Two pushes of 500 (the most one push takes).
    const answers = [...(await push(db, user, ...links.slice(0, 500))), ...(await push(db, user, ...links.slice(500)))];
    expect(answers.every((answer) => answer.status === 'applied')).toBe(true);
    const after = await pullCounted(idle.page.cursor);
    // In (txid, id) order.
    expect(after.page.changes.saved_links?.map((row) => row.id)).toEqual(
      [links.slice(0, 500), links.slice(500)].flatMap((run) => run.map((link) => String(link.args.id)).sort()),
    );
    expect(after.scans).toBe(0);
    // The pushed rows, read twice (their keys, then their rows), and no more.
    expect(after.read).toBeLessThanOrEqual(2 * PUSHED + 50);
  });
});
