/**
 * The link-preview function's allowance, kept in the database: 100 previews an hour per user and
 * 20 fetches a minute from one host across all users; beyond either, 429 and nothing counted.
 * Service role only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';
import { throttled } from './throttle-support.ts';

const service: Actor = { role: 'service_role' };

describe.each(dbKinds)('link preview throttles (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const allowance = (user: string | null, host: string | null) =>
    as(db, service, (sql) => sql.query('select public.link_preview_allowance($1, $2)', [user, host]));
  const counted = async (bucket: string, subject: string) =>
    Number(
      (
        await db.query<{ n: string }>(
          'select count(*) as n from private.throttle_attempts where bucket = $1 and subject = $2',
          [bucket, subject],
        )
      ).rows[0]?.n,
    );

  it('allows a user 100 previews an hour; the 101st is 429, and another user is not held back', async () => {
    const user = await createUser(db);
    const other = await createUser(db);
    for (let i = 0; i < 100; i++) await allowance(user.id, `site-${i}.example`);
    expect(await throttled(allowance(user.id, 'one-more.example'))).toEqual({
      code: 'PGRST',
      status: 429,
      retryAfter: expect.any(Number) as number,
      message: 'Too many link previews. Please try again later.',
    });
    expect(await counted('link_preview_host', 'one-more.example')).toBe(0);
    await allowance(other.id, 'one-more.example');
  });

  it('allows 20 fetches a minute from one host, whoever asks, however the host is written', async () => {
    const users = await Promise.all(Array.from({ length: 21 }, () => createUser(db)));
    const spellings = ['news.example', 'NEWS.example', 'news.example.', ' news.example '];
    for (let i = 0; i < 20; i++) await allowance(users[i]!.id, spellings[i % spellings.length]!);
    const last = users[20]!.id;
    const refused = await throttled(allowance(last, 'News.Example.'));
    expect(refused).toMatchObject({ status: 429, message: 'Too many link previews. Please try again later.' });
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    // Refused, so not counted against the user either.
    expect(await counted('link_preview_user', last)).toBe(0);
    await allowance(last, 'other.example');
  });

  it('refuses a missing user or host, and a host name longer than DNS allows', async () => {
    const user = await createUser(db);
    for (const [who, host] of [
      [null, 'a.example'],
      [user.id, null],
      [user.id, '  .  '],
      [user.id, `${'a'.repeat(250)}.example`],
    ] as const) {
      expect(await sqlError(allowance(who, host))).toEqual({
        code: '22023',
        message: 'A user and a host name (at most 253 characters) are required.',
        hint: 'invalid',
      });
    }
  });

  it('is executable by no client role', async () => {
    const user = await createUser(db);
    for (const actor of [{ role: 'anon' }, { id: user.id }] as Actor[]) {
      const error = await sqlError(
        as(db, actor, (sql) => sql.query('select public.link_preview_allowance($1, $2)', [user.id, 'a.example'])),
      );
      expect(error.code).toBe('42501');
    }
  });
});
