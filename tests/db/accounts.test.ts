import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';

const stamp = Date.now().toString(36);

describe.each(dbKinds)('accounts (%s)', (kind) => {
  let db: Db;

  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const profile = async (id: string) => {
    const { rows } = await db.query<{ email: string; username: string | null; full_name: string }>(
      'select email, username, full_name from public.user_profiles where id = $1',
      [id],
    );
    return rows[0];
  };
  const call = async <T>(actor: Actor, text: string, params: unknown[] = []): Promise<T> =>
    as(db, actor, async (sql) => (await sql.query<{ value: T }>(`select ${text} as value`, params)).rows[0]!.value);

  describe('profile trigger', () => {
    it('takes the username from the sign-up metadata, sanitized', async () => {
      const user = await createUser(db, { username: `Alice.Smith!${stamp}` });
      expect(await profile(user.id)).toMatchObject({
        email: user.email,
        username: `alicesmith${stamp}`,
        full_name: '',
      });
    });

    it('falls back to the e-mail local part when the wanted name is taken case-insensitively or too short', async () => {
      await createUser(db, { username: `bob${stamp}` });
      const second = await createUser(db, { username: `BOB${stamp}`, email: `Bob.Two+${stamp}@example.com` });
      expect((await profile(second.id))?.username).toBe(`bobtwo${stamp}`);
      const short = await createUser(db, { username: 'ab', email: `carol_${stamp}@example.com` });
      expect((await profile(short.id))?.username).toBe(`carol_${stamp}`);
    });

    it('leaves the username null when both are taken or unusable', async () => {
      await createUser(db, { username: `dave${stamp}` });
      const user = await createUser(db, { username: `DAVE${stamp}`, email: `dave${stamp}@other.example` });
      expect((await profile(user.id))?.username).toBeNull();
      const tiny = await createUser(db, { email: `x@${stamp}.example` });
      expect((await profile(tiny.id))?.username).toBeNull();
    });

    it('copies full_name from the metadata and keeps the e-mail in sync', async () => {
      const id = randomUUID();
      await db.query(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3::jsonb)`, [
        id,
        `erin${stamp}@example.com`,
        JSON.stringify({ full_name: 'Erin Example' }),
      ]);
      expect(await profile(id)).toEqual({
        email: `erin${stamp}@example.com`,
        username: `erin${stamp}`,
        full_name: 'Erin Example',
      });
      await db.query('update auth.users set email = $2 where id = $1', [id, `erin.new${stamp}@example.com`]);
      expect((await profile(id))?.email).toBe(`erin.new${stamp}@example.com`);
    });

    it('enforces case-insensitive uniqueness of usernames', async () => {
      const a = await createUser(db, { username: `frank${stamp}` });
      const b = await createUser(db);
      const error = await sqlError(
        as(db, b, (sql) =>
          sql.query('update public.user_profiles set username = $2 where id = $1', [b.id, `FRANK${stamp}`]),
        ),
      );
      expect(error).toEqual({ code: '23505', message: 'Username taken, try another.', hint: 'conflict' });
      expect((await profile(a.id))?.username).toBe(`frank${stamp}`);
    });
  });

  describe('RPCs', () => {
    it('username_available: anon may ask; false when taken (any case) or invalid', async () => {
      await createUser(db, { username: `gina${stamp}` });
      const available = (name: string) => call<boolean>(anonymous, 'public.username_available($1)', [name]);
      expect(await available(`free${stamp}`)).toBe(true);
      expect(await available(`GINA${stamp}`)).toBe(false);
      expect(await available('ab')).toBe(false);
      expect(await available('bad name!')).toBe(false);
      expect(await available('')).toBe(false);
    });

    it('get_my_profile: the caller profile, or Not authenticated for anon', async () => {
      const user = await createUser(db, { username: `hank${stamp}`, tier: 'pro' });
      expect(await call(user, 'public.get_my_profile()')).toEqual({
        id: user.id,
        email: user.email,
        username: `hank${stamp}`,
        full_name: '',
        bio: '',
        subscription_tier: 'pro',
        time_zone: 'UTC',
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      const error = await sqlError(call(anonymous, 'public.get_my_profile()'));
      expect(error).toMatchObject({ code: '28000', message: 'Not authenticated' });
    });

    it('claim_username: sets the name, refuses a taken one with 23505', async () => {
      await createUser(db, { username: `ivy${stamp}` });
      const user = await createUser(db);
      expect(await call(user, 'public.claim_username($1)', [`Jack${stamp}`])).toMatchObject({
        username: `jack${stamp}`,
      });
      expect(await sqlError(call(user, 'public.claim_username($1)', [`IVY${stamp}`]))).toEqual({
        code: '23505',
        message: 'Username taken, try another.',
        hint: 'conflict',
      });
      expect((await sqlError(call(user, 'public.claim_username($1)', ['x']))).code).toBe('22023');
      expect((await sqlError(call(anonymous, 'public.claim_username($1)', ['anyone']))).code).toBe('42501');
    });

    it('update_my_profile: changes only the given fields', async () => {
      const user = await createUser(db, { username: `kim${stamp}` });
      const result = await call(user, 'public.update_my_profile(p_bio => $1, p_time_zone => $2)', ['Hi', 'Asia/Tokyo']);
      expect(result).toMatchObject({ username: `kim${stamp}`, bio: 'Hi', time_zone: 'Asia/Tokyo' });
    });

    it('submit_contact_message: anon may send; fields required; message cut to 4000', async () => {
      const id = await call<string>(anonymous, 'public.submit_contact_message($1, $2, $3)', [
        ' Lee ',
        'Lee@Example.com',
        'x'.repeat(5000),
      ]);
      const { rows } = await db.query<{ name: string; email: string; length: number }>(
        'select name, email, char_length(message) as length from public.contact_messages where id = $1',
        [id],
      );
      expect(rows[0]).toEqual({ name: 'Lee', email: 'lee@example.com', length: 4000 });
      for (const args of [
        ['', 'a@example.com', 'hi'],
        ['A', '', 'hi'],
        ['A', 'a@example.com', '  '],
        ['A', 'not-an-email', 'hi'],
      ]) {
        const error = await sqlError(call(anonymous, 'public.submit_contact_message($1, $2, $3)', args));
        expect(error.code, args.join('|')).toBe('22023');
      }
    });
  });
});
