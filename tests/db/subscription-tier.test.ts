/**
 * set_subscription_tier: the tier changes only through the service role (docs/product.md, Decisions),
 * in SQL and through the local stack's /rest/v1/rpc route with each role's key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createStack } from '../../supabase/local/app.ts';
import { TEST_ANON_KEY, TEST_SERVICE_ROLE_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';

const service: Actor = { role: 'service_role' };

describe.each(dbKinds)('set_subscription_tier (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const tierOf = async (id: string) => {
    const { rows } = await db.query<{ tier: string }>(
      'select subscription_tier as tier from public.user_profiles where id = $1',
      [id],
    );
    return rows[0]?.tier;
  };
  const setTier = (actor: Actor, id: string | null, tier: string | null) =>
    as(db, actor, (sql) =>
      sql.query<{ tier: string }>('select public.set_subscription_tier($1, $2) as tier', [id, tier]),
    );

  it('refuses anon and authenticated, the user themselves included', async () => {
    const user = await createUser(db);
    for (const actor of [anonymous, user]) {
      const error = await sqlError(setTier(actor, user.id, 'pro'));
      expect(error.code).toBe('42501');
    }
    expect(await tierOf(user.id)).toBe('free');
    const { rows } = await db.query<{ anon: boolean; authenticated: boolean; service: boolean }>(
      `select has_function_privilege('anon', 'public.set_subscription_tier(uuid, text)', 'execute') as anon,
              has_function_privilege('authenticated', 'public.set_subscription_tier(uuid, text)', 'execute') as authenticated,
              has_function_privilege('service_role', 'public.set_subscription_tier(uuid, text)', 'execute') as service`,
    );
    expect(rows[0]).toEqual({ anon: false, authenticated: false, service: true });
  });

  it('sets each tier for service_role, and the rules follow it', async () => {
    const user = await createUser(db);
    for (const tier of ['pro', 'team', 'free', 'pro']) {
      const { rows } = await setTier(service, user.id, tier);
      expect(rows[0]?.tier).toBe(tier);
      expect(await tierOf(user.id)).toBe(tier);
    }
    const seen = await as(
      db,
      { ...user, role: 'service_role' },
      async (sql) => (await sql.query<{ t: string }>('select private.my_tier() as t')).rows,
    );
    expect(seen[0]?.t).toBe('pro');
  });

  it('refuses an unknown tier with a clear error, and an unknown user', async () => {
    const user = await createUser(db);
    for (const tier of ['gold', 'PRO', '', null]) {
      const error = await sqlError(setTier(service, user.id, tier));
      expect(error).toMatchObject({ code: '22023', hint: 'invalid' });
      expect(error.message).toMatch(/^Unknown subscription tier: .*Expected free, pro or team\.$/);
    }
    expect(await tierOf(user.id)).toBe('free');
    const missing = await sqlError(setTier(service, '00000000-0000-4000-8000-000000000000', 'pro'));
    expect(missing).toMatchObject({ code: 'P0002', hint: 'not_found' });
  });

  describe('through /rest/v1/rpc on the local stack', () => {
    const stack = () => createStack({ db, jwtSecret: TEST_JWT_SECRET });
    const rpc = async (key: string, bearer: string | null, body: unknown) => {
      const app = stack();
      const headers: Record<string, string> = { apikey: key, 'Content-Type': 'application/json' };
      if (bearer) headers.Authorization = `Bearer ${bearer}`;
      const response = await app.fetch(
        new Request('http://127.0.0.1:54321/rest/v1/rpc/set_subscription_tier', {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        }),
      );
      return { status: response.status, body: (await response.json()) as unknown };
    };

    it('runs the service-role key as service_role and refuses the anon key and a user token', async () => {
      const user = await createUser(db);
      const signIn = await stack().fetch(
        new Request('http://127.0.0.1:54321/auth/v1/token?grant_type=password', {
          method: 'POST',
          headers: { apikey: TEST_ANON_KEY, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: user.email, password: 'password' }),
        }),
      );
      expect(signIn.status).toBe(200);
      const { access_token: token } = (await signIn.json()) as { access_token: string };

      const args = { p_user_id: user.id, p_tier: 'team' };
      expect(await rpc(TEST_ANON_KEY, null, args)).toMatchObject({ status: 401, body: { code: '42501' } });
      expect(await rpc(TEST_ANON_KEY, token, args)).toMatchObject({ status: 403, body: { code: '42501' } });
      expect(await tierOf(user.id)).toBe('free');

      expect(await rpc(TEST_SERVICE_ROLE_KEY, TEST_SERVICE_ROLE_KEY, args)).toEqual({ status: 200, body: 'team' });
      expect(await tierOf(user.id)).toBe('team');
      expect(await rpc(TEST_SERVICE_ROLE_KEY, null, { p_user_id: user.id, p_tier: 'free' })).toEqual({
        status: 200,
        body: 'free',
      });
      expect(
        await rpc(TEST_SERVICE_ROLE_KEY, TEST_SERVICE_ROLE_KEY, { p_user_id: user.id, p_tier: 'gold' }),
      ).toMatchObject({
        status: 400,
        body: { code: '22023', message: 'Unknown subscription tier: gold. Expected free, pro or team.' },
      });
    });
  });
});
