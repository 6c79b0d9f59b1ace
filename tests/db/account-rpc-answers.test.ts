/**
 * The account and public-profile RPCs answer null, missing or over-long input
 * with a 4xx SQLSTATE and a plain message (22xxx is PostgREST's 400, 28000 its 403), never a 500
 * and never a silent success.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';

type User = Required<Pick<Actor, 'id' | 'email'>>;

describe.each(dbKinds)('account RPC answers (%s)', (kind) => {
  let db: Db;
  let user: User;

  beforeAll(async () => {
    db = await freshDb(kind);
    user = await createUser(db);
  });
  afterAll(() => db.close());

  const call = (actor: Actor, text: string, params: unknown[] = []) =>
    as(db, actor, async (sql) => (await sql.query<{ v: unknown }>(`select ${text} as v`, params)).rows[0]?.v);

  it('username_available: 400 for a null or over-long name; false or true otherwise', async () => {
    expect(await sqlError(call(anonymous, 'public.username_available(null)'))).toEqual({
      code: '22023',
      message: 'A username is required.',
      hint: 'invalid',
    });
    expect(await sqlError(call(anonymous, 'public.username_available($1)', ['a'.repeat(31)]))).toEqual({
      code: '22001',
      message: 'A username can be at most 30 characters.',
      hint: 'invalid',
    });
    expect(await call(anonymous, 'public.username_available($1)', ['a'.repeat(30)])).toBe(true);
    expect(await call(anonymous, 'public.username_available($1)', ['ab'])).toBe(false);
    expect(await call(anonymous, 'public.username_available($1)', [''])).toBe(false);
  });

  it('claim_username and update_my_profile: 400 for a null, over-long or empty change', async () => {
    expect(await sqlError(call(user, 'public.claim_username(null)'))).toEqual({
      code: '22023',
      message: 'Please choose a username (min 3 chars).',
      hint: 'invalid',
    });
    expect((await sqlError(call(user, 'public.claim_username($1)', ['x'.repeat(10_000)]))).code).toBe('22001');
    expect(await sqlError(call(user, 'public.update_my_profile()'))).toEqual({
      code: '22023',
      message: 'Nothing to update.',
      hint: 'invalid',
    });
    expect(await sqlError(call(user, 'public.update_my_profile(null, null, null, null)'))).toMatchObject({
      code: '22023',
    });
    expect(await sqlError(call(user, 'public.update_my_profile(p_bio => $1)', ['b'.repeat(501)]))).toEqual({
      code: '22001',
      message: 'The bio can be at most 500 characters.',
      hint: 'invalid',
    });
    expect(await sqlError(call(user, 'public.update_my_profile(p_time_zone => $1)', ['Mars/Olympus']))).toMatchObject({
      code: '22023',
      hint: 'invalid',
    });
    const profile = (await call(user, 'public.update_my_profile(p_full_name => $1)', ['Ann'])) as { full_name: string };
    expect(profile.full_name).toBe('Ann');
  });

  it('get_my_profile: 403 for a token whose user does not exist (forged or deleted), never null', async () => {
    expect((await call(user, 'public.get_my_profile()')) as { id: string }).toMatchObject({ id: user.id });
    const ghost = { id: randomUUID(), email: 'ghost@example.com' };
    for (const text of ['public.get_my_profile()', "public.update_my_profile(p_bio => 'x')"]) {
      expect(await sqlError(call(ghost, text)), text).toEqual({
        code: '28000',
        message: 'Not authenticated',
        hint: 'forbidden',
      });
    }
    expect((await sqlError(call(anonymous, 'public.get_my_profile()'))).code).toBe('28000');
  });

  it('get_public_profile: 400 for a null name; null for an unknown or absurdly long one', async () => {
    expect(await sqlError(call(anonymous, 'public.get_public_profile(null)'))).toEqual({
      code: '22023',
      message: 'A username is required.',
      hint: 'invalid',
    });
    expect(await call(anonymous, 'public.get_public_profile($1)', ['nobody-here'])).toBeNull();
    expect(await call(anonymous, 'public.get_public_profile($1)', ['n'.repeat(100_000)])).toBeNull();
  });
});
