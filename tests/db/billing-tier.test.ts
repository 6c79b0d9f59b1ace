/**
 * No client role can change a subscription tier, by any RPC or table access.
 * The tier moves only through private.apply_tier, which only the billing webhook's
 * apply_billing_event (and set_subscription_tier, for the service key) call; a trigger refuses any
 * other change made on behalf of an API role, a definer function's included.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';

describe.each(dbKinds)('the subscription tier (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const tierOf = async (id: string) =>
    (await db.query<{ t: string }>('select subscription_tier as t from public.user_profiles where id = $1', [id]))
      .rows[0]?.t;

  it('refuses a client changing its own row, even after setting the marker the billing path sets', async () => {
    const user = await createUser(db);
    for (const statement of [
      "update public.user_profiles set subscription_tier = 'pro' where id = auth.uid()",
      "select set_config('linkboard.tier_change', 'billing', true); update public.user_profiles set subscription_tier = 'team' where id = auth.uid()",
    ]) {
      const error = await sqlError(
        as(db, user, async (sql) => {
          for (const part of statement.split('; ')) await sql.query(part);
        }),
      );
      expect(error.code).toBe('42501');
    }
    expect(await tierOf(user.id)).toBe('free');
  });

  it("refuses a client or the service role changing the subscription's cycle, end date or cancellation", async () => {
    const user = await createUser(db);
    const service: Actor = { role: 'service_role' };
    for (const actor of [user, service]) {
      for (const change of [
        "billing_cycle = 'yearly'",
        "plan_period_end = '2027-11-26T10:00:00+00:00'",
        'plan_cancel_at_period_end = true',
      ]) {
        const error = await sqlError(
          as(db, actor, (sql) => sql.query(`update public.user_profiles set ${change} where id = $1`, [user.id])),
        );
        expect(error).toMatchObject({ code: '42501', message: 'The plan changes only through billing.' });
      }
    }
    const answer = await as(db, user, async (sql) => {
      const { rows } = await sql.query<{ a: { results: { status: string }[] } }>('select public.sync_push($1) as a', [
        JSON.stringify([
          {
            id: randomUUID(),
            name: 'profile.update',
            args: { billing_cycle: 'yearly', plan_period_end: '2027-11-26T10:00:00+00:00', bio: 'hi' },
          },
        ]),
      ]);
      return rows[0]?.a.results[0]?.status;
    });
    expect(['applied', 'rejected']).toContain(answer);
    const { rows } = await db.query(
      'select billing_cycle, plan_period_end, plan_cancel_at_period_end from public.user_profiles where id = $1',
      [user.id],
    );
    expect(rows[0]).toEqual({ billing_cycle: null, plan_period_end: null, plan_cancel_at_period_end: false });
  });

  it('refuses a client inserting a profile on a paid tier', async () => {
    const user = await createUser(db);
    await db.query('delete from public.user_profiles where id = $1', [user.id]);
    const error = await sqlError(
      as(db, user, (sql) =>
        sql.query("insert into public.user_profiles (id, email, subscription_tier) values ($1, $2, 'pro')", [
          user.id,
          user.email,
        ]),
      ),
    );
    expect(error.code).toBe('42501');
  });

  it('ignores or refuses a tier sent through sync_push', async () => {
    const user = await createUser(db);
    const answer = await as(db, user, async (sql) => {
      const { rows } = await sql.query<{ a: { results: { status: string }[] } }>('select public.sync_push($1) as a', [
        JSON.stringify([{ id: randomUUID(), name: 'profile.update', args: { subscription_tier: 'team', bio: 'hi' } }]),
      ]);
      return rows[0]?.a.results[0]?.status;
    });
    expect(['applied', 'rejected']).toContain(answer);
    expect(await tierOf(user.id)).toBe('free');
  });

  it('refuses even the service role a direct update; only the billing functions move a tier', async () => {
    const user = await createUser(db);
    const service: Actor = { role: 'service_role' };
    const direct = await sqlError(
      as(db, service, (sql) =>
        sql.query("update public.user_profiles set subscription_tier = 'pro' where id = $1", [user.id]),
      ),
    );
    expect(direct).toMatchObject({ code: '42501', message: 'The plan changes only through billing.' });
    expect(await tierOf(user.id)).toBe('free');
    await as(db, service, (sql) =>
      sql.query('select public.apply_billing_event($1)', [
        {
          id: `evt_${randomUUID()}`,
          type: 'checkout.session.completed',
          created: Math.floor(Date.now() / 1000),
          user_id: user.id,
          customer_id: `cus_${randomUUID()}`,
          status: 'active',
          plan: 'pro',
          billing_cycle: 'monthly',
        },
      ]),
    );
    expect(await tierOf(user.id)).toBe('pro');
  });

  it('gives no client role any function that reaches apply_tier or apply_billing_profile or sets their marker', async () => {
    const { rows } = await db.query<{ fn: string; anon: boolean; authenticated: boolean }>(
      `select p.oid::regprocedure::text as fn,
              has_function_privilege('anon', p.oid, 'execute') as anon,
              has_function_privilege('authenticated', p.oid, 'execute') as authenticated
       from pg_proc p
       where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
         and (p.prosrc like '%apply_tier%' or p.prosrc like '%apply_billing_profile%'
              or p.prosrc like '%linkboard.tier_change%')
       order by 1`,
    );
    expect(rows.map((row) => row.fn).sort()).toEqual(
      [
        'private.apply_tier(uuid,text)',
        'private.apply_billing_profile(uuid,text,text,timestamp with time zone,boolean)',
        'private.guard_subscription_tier()',
        'apply_billing_event(jsonb)',
        'set_subscription_tier(uuid,text)',
      ].sort(),
    );
    expect(rows.filter((row) => row.anon || row.authenticated)).toEqual([]);
    // Every function that writes user_profiles' tier column by name is one of those.
    const writers = await db.query<{ fn: string }>(
      `select p.oid::regprocedure::text as fn from pg_proc p
       where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
         and p.prosrc ~* 'set\\s+subscription_tier' order by 1`,
    );
    expect(writers.rows.map((row) => row.fn)).toEqual([
      'private.apply_billing_profile(uuid,text,text,timestamp with time zone,boolean)',
      'private.apply_tier(uuid,text)',
    ]);
  });

  it('keeps the billing functions and tables closed to anon and authenticated', async () => {
    const user = await createUser(db);
    for (const actor of [anonymous, user]) {
      for (const statement of [
        "select public.apply_billing_event('{}'::jsonb)",
        `select public.billing_account('${user.id}', 'checkout')`,
        'select count(*) from public.billing_events',
        'select count(*) from public.billing_customers',
        "insert into public.billing_events (id, type, created_at) values ('evt_x', 'x', now())",
      ]) {
        const error = await sqlError(as(db, actor, (sql) => sql.query(statement)));
        expect(error.code).toBe('42501');
      }
    }
  });

  it('applies an event once, in one transaction, and refuses a malformed one without writing', async () => {
    const user = await createUser(db);
    const service: Actor = { role: 'service_role' };
    const apply = (event: unknown) =>
      as(db, service, async (sql) => {
        const { rows } = await sql.query<{ a: { outcome: string } }>('select public.apply_billing_event($1) as a', [
          event,
        ]);
        return rows[0]?.a.outcome;
      });
    for (const bad of [
      {},
      { id: 'evt_1', type: 'x' },
      { id: 'evt_1', type: 'x', created: 'yesterday' },
      { id: 'evt_1', type: 'checkout.session.completed', created: 1, plan: 'gold' },
      { id: 'evt_1', type: 'checkout.session.completed', created: 1, billing_cycle: 'weekly' },
      { id: 'evt_1', type: 'customer.subscription.updated', created: 1, cancel_at_period_end: 'yes' },
    ]) {
      expect(await sqlError(apply(bad))).toMatchObject({ code: '22023', hint: 'invalid' });
    }
    const event = {
      id: `evt_${randomUUID()}`,
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      user_id: user.id,
      status: 'active',
      plan: 'team',
      billing_cycle: 'yearly',
      amount: 10000,
      currency: 'usd',
    };
    expect(await apply(event)).toBe('applied');
    expect(await apply(event)).toBe('duplicate');
    const mails = await db.query<{ subject: string; body: string }>(
      "select subject, body from public.outgoing_mail where to_address = $1 and subject like 'Your Linkboard%'",
      [user.email],
    );
    expect(mails.rows.map((m) => m.subject)).toEqual(['Your Linkboard receipt: Team plan']);
    expect(mails.rows[0]?.body).toContain('Amount paid: $100.00');
    expect(await tierOf(user.id)).toBe('team');
  });
});
