/**
 * A transaction's scripts (Tx.script in supabase/local/db.ts): statements sent as one text, with
 * the transaction's BEGIN when first and its COMMIT when asked, as the RPC route sends a call
 * (rest.ts); and `literal`, the only way a value goes into such a text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literal, type Db } from '../../supabase/local/db.ts';
import { dbKinds, freshDb } from '../support/db.ts';

it('makes literals of any text but a NUL', () => {
  expect(literal(null)).toBe('null');
  expect(literal("it's")).toBe("'it''s'");
  expect(literal('a\\b')).toBe(" E'a\\\\b'");
  expect(() => literal('a\0b')).toThrow(/NUL/);
});

describe.each(dbKinds)('on %s', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb(kind);
    await db.exec('create table public.lbtest_script (n int primary key, note text)');
  });
  afterAll(() => db.close());

  const count = async () =>
    Number((await db.query<{ n: string }>('select count(*)::text as n from public.lbtest_script')).rows[0]!.n);

  it('gives the rows of the script’s last statement, each value as the literal sent', async () => {
    const texts = ["quote ' and \\ backslash", '{"a": "\\u00e9"}', 'é ✓ 😀'];
    const rows = await db.transaction(async (tx) => {
      const { rows } = await tx.script<{ a: string; b: string; c: string }>(
        `set transaction read only;\nselect ${texts.map((t, i) => `${literal(t)}::text as ${'abc'[i]}`).join(', ')}`,
      );
      return rows;
    });
    expect(rows).toEqual([{ a: texts[0], b: texts[1], c: texts[2] }]);
  });

  it('commits with its last statement, or rolls back the whole transaction when a statement fails', async () => {
    const committed = await db.transaction(async (tx) => {
      await tx.script(`insert into public.lbtest_script values (1, 'first')`);
      const { rows } = await tx.script<{ n: number }>(`insert into public.lbtest_script values (2, 'x') returning n`, {
        commit: true,
      });
      await expect(tx.query('select 1')).rejects.toThrow(/committed/);
      return rows;
    });
    expect(committed).toEqual([{ n: 2 }]);
    expect(await count()).toBe(2);
    await expect(
      db.transaction(async (tx) => {
        await tx.script(`insert into public.lbtest_script values (3, 'rolled back')`);
        await tx.script(`insert into public.lbtest_script values (1, 'a duplicate')`, { commit: true });
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await count()).toBe(2);
    // The connection is usable again, outside any transaction.
    await db.transaction((tx) => tx.script(`delete from public.lbtest_script where n = 2`, { commit: true }));
    expect(await count()).toBe(1);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('on postgres, one round trip', () => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb('postgres');
    await db.exec('create table public.lbtest_script (n int primary key)');
  });
  afterAll(() => db.close());

  it('has committed when the script with its COMMIT answers, before the transaction’s function returns', async () => {
    const seen = await db.transaction(async (tx) => {
      await tx.script(`insert into public.lbtest_script values (1)`, { commit: true });
      // Another connection of the pool sees the row while the function still runs.
      const { rows } = await db.query<{ n: number }>('select n from public.lbtest_script');
      return rows;
    });
    expect(seen).toEqual([{ n: 1 }]);
  });

  it('sends BEGIN with the first script, in the same message', async () => {
    // now() is when the transaction's BEGIN came, statement_timestamp() when the statement's message came.
    const [first, later] = await db.transaction(async (tx) => {
      const { rows } = await tx.script<{ same: boolean }>('select now() = statement_timestamp() as same');
      const next = await tx.query<{ same: boolean }>('select now() = statement_timestamp() as same where $1', [true]);
      return [rows[0]?.same, next.rows[0]?.same];
    });
    expect([first, later]).toEqual([true, false]);
  });
});
