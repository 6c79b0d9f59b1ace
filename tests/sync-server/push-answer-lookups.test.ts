/**
 * A push reads the recorded answers (public.sync_mutations) by their key, whatever the table's
 * statistics say: a plan made while the table was empty (a new database analyzed before its
 * first push; autovacuum's first ANALYZE of a few rows) would otherwise scan the whole table on
 * every lookup for as long as the connection keeps it, three or more times a push
 * (docs/scale.md, point 7). Counted by the transaction's own scans of the table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, type Actor } from '../support/db.ts';
import { makeDirectory, mutation, uuid, type MutationResult } from './sync.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;

describe.each(dbKinds)('the recorded answers read by key (%s)', (kind) => {
  let db: Db;
  let user: User;
  let dir: string;
  beforeAll(async () => {
    db = await freshDb(kind);
    user = await createUser(db, { tier: 'pro' });
    dir = (await makeDirectory(db, user, 'Answers')).id;
  });
  afterAll(() => db.close());

  const newLink = () =>
    mutation('link.create', { id: uuid(), directory_id: dir, url: `https://answers.example/${uuid()}`, title: 'A' });

  /** Pushes as the user and answers the push's results and its whole-table scans of sync_mutations. */
  async function pushCounted(mutations: unknown[]): Promise<{ statuses: string[]; seqScans: number }> {
    return as(db, user, async (sql) => {
      // The backend's counts not yet reported (this transaction's, and those of its earlier ones).
      const scans = async () =>
        Number(
          (
            await sql.query<{ n: string }>(
              `select coalesce(sum(seq_scan), 0)::text as n from pg_stat_xact_user_tables
               where relid = 'public.sync_mutations'::regclass`,
            )
          ).rows[0]!.n,
        );
      const before = await scans();
      const { rows } = await sql.query<{ r: { results: MutationResult[] } }>(
        'select public.sync_push($1::jsonb) as r',
        [JSON.stringify(mutations)],
      );
      const seqScans = (await scans()) - before;
      return { statuses: rows[0]!.r.results.map((result) => result.status), seqScans };
    });
  }

  it('looks answers up by key after the table was analyzed empty: a replay, a run, a lone mutation', async () => {
    expect(
      Number((await db.query<{ n: string }>('select count(*)::text as n from public.sync_mutations')).rows[0]!.n),
    ).toBe(0);
    await db.exec('analyze public.sync_mutations');
    const first = newLink();
    const pushed = await pushCounted([first, newLink(), newLink()]);
    expect(pushed).toEqual({ statuses: ['applied', 'applied', 'applied'], seqScans: 0 });
    // A replay of the first (its recorded answer), a lone edit, and a new run.
    const edit = mutation('link.update', { id: (first.args as { id: string }).id, title: 'B' });
    const again = await pushCounted([first, edit, newLink(), newLink()]);
    expect(again).toEqual({ statuses: ['applied', 'applied', 'applied', 'applied'], seqScans: 0 });
  });
});
