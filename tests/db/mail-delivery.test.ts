/**
 * The delivery state of public.outgoing_mail and the two functions a sender
 * uses, claim_outgoing_mail and finish_outgoing_mail (supabase/schemas/mail.sql). A row is
 * claimed by one sender at a time under a lease, finished once, retried with exponential back-off
 * after a temporary failure, failed for good after a permanent one or the last attempt; a finished
 * row is never reopened; only the service role may do any of it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { migrate } from '../../supabase/local/migrate.ts';
import { withDbBefore } from '../support/db-before.ts';
import { anonymous, as, createUser, dbKinds, freshDb, outcome, sqlError, type Actor } from '../support/db.ts';

interface Claimed {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
}

interface RowState {
  status: string;
  attempts: number;
  last_error: string | null;
  sent: boolean;
  locked: boolean;
  /** Seconds from now until the row is due (negative: overdue). */
  due_in: number;
}

const service: Actor = { role: 'service_role' };
const HOUR = 3600;

describe.each(dbKinds)('outgoing mail delivery (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    await db.exec('delete from public.outgoing_mail');
  });

  const queue = async (count: number, to = 'ann@example.com'): Promise<string[]> => {
    const { rows } = await db.query<{ id: string }>(
      `insert into public.outgoing_mail (to_address, subject, body)
       select $1, 'Subject ' || i, 'Body ' || i from generate_series(1, $2::integer) i returning id`,
      [to, count],
    );
    return rows.map((row) => row.id);
  };
  const claim = async (limit = 10, lease = 60) =>
    (
      await as(db, service, (sql) =>
        sql.query<Claimed>('select * from public.claim_outgoing_mail($1, $2)', [limit, lease]),
      )
    ).rows;
  const finish = async (
    id: string,
    outcomeOf: { ok: boolean; error?: string; permanent?: boolean; base?: number; max?: number; attempt?: number },
  ) =>
    (
      await as(db, service, (sql) =>
        sql.query<{ status: string | null }>(
          'select public.finish_outgoing_mail($1, $2, $3, $4, $5, $6, $7) as status',
          [
            id,
            outcomeOf.ok,
            outcomeOf.error ?? null,
            outcomeOf.permanent ?? false,
            outcomeOf.base ?? 30,
            outcomeOf.max ?? 5,
            outcomeOf.attempt ?? null,
          ],
        ),
      )
    ).rows[0]?.status ?? null;
  const state = async (id: string): Promise<RowState> => {
    const { rows } = await db.query<RowState>(
      `select status, attempts, last_error, sent_at is not null as sent, locked_until is not null as locked,
              extract(epoch from next_attempt_at - now())::float8 as due_in
       from public.outgoing_mail where id = $1`,
      [id],
    );
    if (!rows[0]) throw new Error(`no row ${id}`);
    return rows[0];
  };
  /** Makes the row's wait (back-off, or lease) pass, as if time had gone by. */
  const timePasses = (id: string) =>
    db.query(
      `update public.outgoing_mail set next_attempt_at = now() - interval '1 second',
         locked_until = case when locked_until is null then null else now() - interval '1 second' end
       where id = $1`,
      [id],
    );

  it('queues new mail, claims due rows once under a lease, and records a delivery', async () => {
    const [id] = await queue(1);
    expect(await state(id!)).toMatchObject({ status: 'queued', attempts: 0, sent: false, locked: false });

    const claimed = await claim();
    expect(claimed).toEqual([
      { id, to_address: 'ann@example.com', subject: 'Subject 1', body: 'Body 1', attempts: 1, calendar: null },
    ]);
    expect(await state(id!)).toMatchObject({ status: 'sending', attempts: 1, locked: true });
    // Held by the lease: a second sender finds nothing.
    expect(await claim()).toEqual([]);

    expect(await finish(id!, { ok: true, attempt: 1 })).toBe('sent');
    expect(await state(id!)).toMatchObject({ status: 'sent', attempts: 1, sent: true, locked: false });
    // Finished means finished: no second finish, no claim, even once its time has passed.
    expect(await finish(id!, { ok: false, error: 'late' })).toBeNull();
    await timePasses(id!);
    expect(await claim()).toEqual([]);
    expect(await state(id!)).toMatchObject({ status: 'sent', last_error: null });
  });

  it('claims at most the limit, the longest-due first, and skips rows not due yet', async () => {
    const ids = await queue(5);
    await db.query(`update public.outgoing_mail set next_attempt_at = now() + interval '1 hour' where id = $1`, [
      ids[0],
    ]);
    await db.query(`update public.outgoing_mail set next_attempt_at = now() - interval '1 minute' where id = $1`, [
      ids[4],
    ]);
    const first = await claim(2);
    expect(first).toHaveLength(2);
    const firstIds = first.map((row) => row.id);
    expect(firstIds).toContain(ids[4]);
    const rest = await claim(10);
    expect(rest.map((row) => row.id).sort()).toEqual(
      [ids[1], ids[2], ids[3]].filter((id) => !firstIds.includes(id!)).sort(),
    );
    expect((await state(ids[0]!)).status).toBe('queued');
  });

  it('gives two claims at the same moment disjoint rows', async () => {
    const ids = await queue(20);
    const [a, b] = await Promise.all([claim(12), claim(12)]);
    const seen = [...a!, ...b!].map((row) => row.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('retries a temporary failure with exponential back-off, then fails it after the last attempt', async () => {
    const [id] = await queue(1);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [claimed] = await claim();
      expect(claimed?.attempts).toBe(attempt);
      expect(await finish(id!, { ok: false, error: `451 busy ${attempt}`, base: 30, max: 4, attempt })).toBe('queued');
      const now = await state(id!);
      expect(now).toMatchObject({
        status: 'queued',
        attempts: attempt,
        last_error: `451 busy ${attempt}`,
        locked: false,
      });
      delays.push(Math.round(now.due_in));
      // Not due before its back-off has passed.
      expect(await claim()).toEqual([]);
      await timePasses(id!);
    }
    expect(delays).toEqual([30, 60, 120]);
    await claim();
    expect(await finish(id!, { ok: false, error: '451 still busy', base: 30, max: 4, attempt: 4 })).toBe('failed');
    expect(await state(id!)).toMatchObject({ status: 'failed', attempts: 4, last_error: '451 still busy' });
    await timePasses(id!);
    expect(await claim()).toEqual([]);
  });

  it('caps the back-off at 6 hours and keeps the error short', async () => {
    const [id] = await queue(1);
    await db.query('update public.outgoing_mail set attempts = 30 where id = $1', [id]);
    await claim();
    expect(await finish(id!, { ok: false, error: 'x'.repeat(5000), base: 60, max: 100 })).toBe('queued');
    const row = await state(id!);
    expect(Math.round(row.due_in)).toBe(6 * HOUR);
    expect(row.last_error).toHaveLength(1000);
  });

  it('fails a permanent refusal at once, and names a failure with no message', async () => {
    const [refused, blank] = await queue(2);
    await claim();
    expect(await finish(refused!, { ok: false, error: '550 no such user', permanent: true, max: 10 })).toBe('failed');
    expect(await state(refused!)).toMatchObject({ status: 'failed', attempts: 1, last_error: '550 no such user' });
    expect(await finish(blank!, { ok: false, error: '  ' })).toBe('queued');
    expect((await state(blank!)).last_error).toBe('unknown error');
  });

  it('changes nothing when asked to finish a row that is not being sent', async () => {
    const [queued] = await queue(1);
    const before = await state(queued!);
    expect(await finish(queued!, { ok: true })).toBeNull();
    expect(await finish(queued!, { ok: false, error: 'x', permanent: true })).toBeNull();
    expect(await state(queued!)).toMatchObject({ ...before, due_in: expect.any(Number) });
    expect(await finish('00000000-0000-4000-8000-000000000000', { ok: true })).toBeNull();
  });

  it('claims again a row whose sender died (its lease passed), and ignores that sender if it comes back', async () => {
    const [id] = await queue(1);
    const [first] = await claim(1, 30);
    expect(first?.attempts).toBe(1);
    // The lease runs: nobody else may take it.
    expect(await claim()).toEqual([]);
    await timePasses(id!);
    const [again] = await claim(1, 30);
    expect(again).toMatchObject({ id, attempts: 2 });
    // The first sender's late word is about a claim that is over: ignored, the new one holds.
    expect(await finish(id!, { ok: false, error: 'timeout', attempt: 1 })).toBeNull();
    expect(await state(id!)).toMatchObject({ status: 'sending', attempts: 2, locked: true });
    expect(await finish(id!, { ok: true, attempt: 2 })).toBe('sent');
  });

  it('refuses bad arguments with a clear message (22023), not a failure of its own', async () => {
    const claimError = (limit: unknown, lease: unknown) =>
      sqlError(as(db, service, (sql) => sql.query('select * from public.claim_outgoing_mail($1, $2)', [limit, lease])));
    for (const limit of [0, 101, null]) {
      expect(await claimError(limit, 60)).toMatchObject({
        code: '22023',
        message: 'p_limit must be a whole number from 1 to 100.',
      });
    }
    for (const lease of [0, 3601, null]) {
      expect(await claimError(10, lease)).toMatchObject({
        code: '22023',
        message: 'p_lease_seconds must be a whole number from 1 to 3600.',
      });
    }
    const finishError = (args: unknown[]) =>
      sqlError(as(db, service, (sql) => sql.query('select public.finish_outgoing_mail($1, $2, $3, $4, $5, $6)', args)));
    const id = '00000000-0000-4000-8000-000000000000';
    expect(await finishError([null, true, null, false, 30, 5])).toMatchObject({ code: '22023' });
    expect(await finishError([id, null, null, false, 30, 5])).toMatchObject({
      message: 'p_id and p_ok are required.',
    });
    for (const base of [0, -1, 86401, null]) {
      expect(await finishError([id, false, 'x', false, base, 5])).toMatchObject({
        code: '22023',
        message: 'p_retry_base_seconds must be more than 0 and at most 86400.',
      });
    }
    for (const max of [0, 101, null]) {
      expect(await finishError([id, false, 'x', false, 30, max])).toMatchObject({
        code: '22023',
        message: 'p_max_attempts must be a whole number from 1 to 100.',
      });
    }
  });

  it('lets no client role claim, finish, read or change the queue', async () => {
    const [id] = await queue(1);
    const user = await createUser(db);
    const actors: Record<string, Actor> = { anonymous, user };
    for (const actor of Object.values(actors)) {
      expect(await outcome(db, actor, 'select * from public.claim_outgoing_mail(10, 60)')).toBe('error 42501');
      expect(await outcome(db, actor, 'select public.finish_outgoing_mail($1, true, null, false, 30, 5)', [id])).toBe(
        'error 42501',
      );
      expect(await outcome(db, actor, 'select id from public.outgoing_mail')).toBe('error 42501');
      expect(
        await outcome(db, actor, `update public.outgoing_mail set status = 'sent' where id = $1 returning id`, [id]),
      ).toBe('error 42501');
      expect(
        await outcome(
          db,
          actor,
          `insert into public.outgoing_mail (to_address, subject, body) values ('a@b.c', 's', 'b')`,
        ),
      ).toBe('error 42501');
    }
    const { rows } = await db.query<Record<string, boolean>>(
      `select has_function_privilege('service_role', 'public.claim_outgoing_mail(integer, integer)', 'execute') as claim,
              has_function_privilege('service_role',
                'public.finish_outgoing_mail(uuid, boolean, text, boolean, numeric, integer, integer)', 'execute') as finish,
              has_function_privilege('public', 'public.claim_outgoing_mail(integer, integer)', 'execute') as public_claim`,
    );
    expect(rows[0]).toEqual({ claim: true, finish: true, public_claim: false });
    expect((await state(id!)).status).toBe('queued');
  });

  it('refuses a status outside the four', async () => {
    const [id] = await queue(1);
    const error = await sqlError(db.query(`update public.outgoing_mail set status = 'lost' where id = $1`, [id]));
    expect(error.code).toBe('23514');
  });
});

describe('the delivery migration', () => {
  it('marks mail queued before it as sent, so turning on a provider does not send old mail', async () => {
    await withDbBefore('outgoing_mail_delivery', async (db) => {
      await db.query(
        `insert into public.outgoing_mail (to_address, subject, body, created_at)
         values ('old@example.com', 'Confirm', 'An old link', now() - interval '3 days')`,
      );
      await migrate(db);
      const { rows } = await db.query<{ status: string; sent_at_is_created: boolean }>(
        'select status, sent_at = created_at as sent_at_is_created from public.outgoing_mail',
      );
      expect(rows).toEqual([{ status: 'sent', sent_at_is_created: true }]);
      await db.query(
        `insert into public.outgoing_mail (to_address, subject, body) values ('new@example.com', 's', 'b')`,
      );
      const { rows: fresh } = await db.query<{ status: string }>(
        `select status from public.outgoing_mail where to_address = 'new@example.com'`,
      );
      expect(fresh).toEqual([{ status: 'queued' }]);
    });
  });
});
