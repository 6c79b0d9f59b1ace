import { afterEach, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../../supabase/local/db.ts';
import { analyzeChangedTables } from '../../supabase/local/auto-analyze.ts';
import { startStack } from '../../supabase/local/server.ts';
import { TEST_JWT_SECRET } from '../support/test-keys.ts';
import { freshDb } from '../support/db.ts';

let db: Db | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

describe('auto-analyze (autovacuum ANALYZE for PGlite)', () => {
  it('analyzes the tables autovacuum would, once each, and names them', async () => {
    db = await openPglite();
    await db.exec('create table public.grown (id int primary key); create table public.quiet (id int primary key)');
    await db.exec('insert into public.grown select generate_series(1, 1000); insert into public.quiet values (1)');
    // 1,000 changes pass 50 + 10 % of 0 rows; 1 change does not.
    expect(await analyzeChangedTables(db)).toEqual(['public.grown']);
    const { rows } = await db.query<{ reltuples: number }>(
      "select reltuples::int as reltuples from pg_class where relname = 'grown'",
    );
    expect(rows[0]!.reltuples).toBe(1000);
    expect(await analyzeChangedTables(db)).toEqual([]);
    // 100 more rows are under 50 + 10 % of 1,000; 200 are over.
    await db.exec('insert into public.grown select generate_series(1001, 1100)');
    expect(await analyzeChangedTables(db)).toEqual([]);
    await db.exec('insert into public.grown select generate_series(1101, 1300)');
    expect(await analyzeChangedTables(db)).toEqual(['public.grown']);
  });

  it('runs in the local stack on PGlite and stops with it', async () => {
    db = await freshDb();
    await db.exec('create table public.grown (id int primary key)');
    const stack = await startStack({
      db,
      port: 0,
      jwtSecret: TEST_JWT_SECRET,
      reminderTiming: false,
      autoAnalyze: { firstMs: 10, everyMs: 20 },
    });
    try {
      await db.exec('insert into public.grown select generate_series(1, 500)');
      await expect
        .poll(
          async () =>
            (await db!.query<{ n: number }>("select reltuples::int as n from pg_class where relname = 'grown'"))
              .rows[0]!.n,
          { timeout: 5000 },
        )
        .toBe(500);
    } finally {
      await stack.close();
    }
  });
});
