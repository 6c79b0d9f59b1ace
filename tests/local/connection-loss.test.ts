/**
 * The local stack when PostgreSQL goes away (docs/faults.md, PostgreSQL restarted): a transaction
 * whose connection the server closes fails without ending the process, its client leaves the pool,
 * and the API answers PostgREST's 503, which a client retries, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLoss } from '../../supabase/local/db.ts';
import { anonKey, startTestStack, URL_BASE, type TestStack } from './stack.ts';

it('tells a lost or refused connection from an error of the statement', () => {
  for (const code of ['57P01', '57P02', '57P03', '08006', '08001', 'ECONNREFUSED', 'ECONNRESET']) {
    expect(isConnectionLoss({ code, message: 'x' }), code).toBe(true);
  }
  expect(isConnectionLoss(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isConnectionLoss(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
  for (const code of ['23505', '40001', 'P0001', '57014', '42501']) {
    expect(isConnectionLoss({ code, message: 'x' }), code).toBe(false);
  }
  expect(isConnectionLoss(new Error('boom'))).toBe(false);
  expect(isConnectionLoss(null)).toBe(false);
});

describe.skipIf(!process.env.DATABASE_URL)('on postgres', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ kind: 'postgres' });
    // The database ends the caller's own connection mid-call, as a restart does (57P01).
    await stack.db.exec(`
      create function public.lbtest_cut_connection() returns int language plpgsql volatile security definer
        as $$ begin perform pg_terminate_backend(pg_backend_pid()); perform pg_sleep(5); return 1; end $$;
      grant execute on function public.lbtest_cut_connection() to anon;
      create function public.lbtest_one() returns int language sql stable as $$ select 1 $$;
      grant execute on function public.lbtest_one() to anon;`);
  });
  afterAll(() => stack.close());

  it('survives its connection closed between two statements of a transaction', async () => {
    const other = stack.db;
    await expect(
      stack.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('select pg_backend_pid() as pid');
        const pid = rows[0]!.pid;
        await other.query('select pg_terminate_backend($1)', [pid]);
        // The connection is idle in its transaction when the server's goodbye arrives.
        await expect
          .poll(async () => (await other.query('select 1 from pg_stat_activity where pid = $1', [pid])).rows.length)
          .toBe(0);
        await tx.query('select 1');
      }),
    ).rejects.toSatisfy(isConnectionLoss);
    // The pool goes on with a working connection.
    for (let i = 0; i < 10; i++) {
      await expect(stack.db.transaction((tx) => tx.query('select 1 as one'))).resolves.toEqual({ rows: [{ one: 1 }] });
    }
  });

  it('answers 503 when the connection is lost during a call, and serves the next one', async () => {
    const call = (fn: string) =>
      stack.fetch(`${URL_BASE}/rest/v1/rpc/${fn}`, {
        method: 'POST',
        headers: { apikey: anonKey, 'Content-Type': 'application/json' },
        body: '{}',
      });
    const cut = await call('lbtest_cut_connection');
    expect(cut.status).toBe(503);
    expect(cut.headers.get('Retry-After')).toBe('1');
    expect(await cut.json()).toMatchObject({ code: 'PGRST001' });
    const next = await call('lbtest_one');
    expect(next.status).toBe(200);
    expect(await next.json()).toBe(1);
  });
});
