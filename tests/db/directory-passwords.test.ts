/**
 * For public directories: password guesses throttled inside the
 * database (and recorded, so a wrong guess is not rolled back), bcrypt cost 10 with old hashes
 * rehashed, passwords over 72 bytes refused, and 4xx answers for unknown, deleted or null ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, insertRow, sqlError, type Actor } from '../support/db.ts';
import { fromAddress, throttled } from './throttle-support.ts';

type Row = { id: string };
type User = Required<Pick<Actor, 'id' | 'email'>>;

interface Answer {
  value: { directory?: { name: string }; links?: unknown[]; hint?: string; message?: string } | null;
  status: string | null;
}

describe.each(dbKinds)('directory passwords (%s)', (kind) => {
  let db: Db;
  let owner: User;
  let n = 0;

  beforeAll(async () => {
    db = await freshDb(kind);
    owner = await createUser(db, { tier: 'pro' });
  });
  afterAll(() => db.close());

  const setPassword = (dir: string, password: string | null, actor: Actor = owner) =>
    as(db, actor, (sql) => sql.query('select private.set_directory_password($1, $2)', [dir, password]));

  const lockedDirectory = async (password = 'open sesame') => {
    const dir = await insertRow<Row>(db, 'link_directories', { name: `Locked ${n++}`, owner_id: owner.id });
    await insertRow(db, 'saved_links', { directory_id: dir.id, url: 'https://s.example', title: 'S' });
    await setPassword(dir.id, password);
    return dir;
  };

  /** One unlock attempt by a visitor from an address: the answer and the response status it set. */
  const unlock = (dir: string, password: string | null, address = '198.51.100.7', actor: Actor = anonymous) =>
    as(db, actor, async (sql): Promise<Answer> => {
      await fromAddress(sql, address);
      const { rows } = await sql.query<{ value: Answer['value'] }>(
        'select public.get_public_directory($1, $2) as value',
        [dir, password],
      );
      const status = await sql.query<{ status: string | null }>(
        "select nullif(current_setting('response.status', true), '') as status",
      );
      return { value: rows[0]!.value, status: status.rows[0]!.status };
    });

  const wrongAnswer = {
    value: { code: '42501', message: 'Wrong password.', details: null, hint: 'forbidden' },
    status: '403',
  };

  const hashOf = async (dir: string) =>
    (
      await db.query<{ password_hash: string }>(
        'select password_hash from public.directory_secrets where directory_id = $1',
        [dir],
      )
    ).rows[0]?.password_hash;

  it('records every wrong password and refuses the 11th attempt in 15 minutes from one address with 429', async () => {
    const dir = await lockedDirectory();
    for (let i = 0; i < 10; i++) expect(await unlock(dir.id, `guess ${i}`)).toEqual(wrongAnswer);
    const { rows } = await db.query<{ count: string }>(
      "select count(*) from private.throttle_attempts where bucket = 'directory_password' and subject = $1",
      [`${dir.id} 198.51.100.7`],
    );
    expect(Number(rows[0]?.count)).toBe(10);

    // The right password too: guessing cannot go on while the limit holds.
    const refused = await throttled(unlock(dir.id, 'open sesame'));
    expect(refused).toMatchObject({
      code: 'PGRST',
      status: 429,
      message: 'Too many attempts. Please wait a few minutes and try again.',
    });
    expect(refused.retryAfter).toBeGreaterThan(800);
    expect(refused.retryAfter).toBeLessThanOrEqual(900);

    // Another address, and the owner, are not held back.
    expect((await unlock(dir.id, 'open sesame', '203.0.113.9')).value?.directory?.name).toMatch(/^Locked/);
    expect((await unlock(dir.id, null, '198.51.100.7', owner)).value?.links).toHaveLength(1);
  });

  it('counts only wrong passwords: the right one, and a missing one, any number of times', async () => {
    const dir = await lockedDirectory();
    for (let i = 0; i < 12; i++) expect((await unlock(dir.id, 'open sesame')).value?.links).toHaveLength(1);
    for (let i = 0; i < 12; i++) expect((await sqlError(unlock(dir.id, null))).hint).toBe('password_required');
    const { rows } = await db.query<{ count: string }>(
      "select count(*) from private.throttle_attempts where subject like $1 || '%'",
      [dir.id],
    );
    expect(Number(rows[0]?.count)).toBe(0);
  });

  it('refuses every address once a directory had 100 wrong passwords in an hour', async () => {
    const dir = await lockedDirectory();
    await db.query(
      `insert into private.throttle_attempts (bucket, subject)
       select 'directory_password_all', $1 from generate_series(1, 99)`,
      [dir.id],
    );
    expect(await unlock(dir.id, 'nope', '192.0.2.1')).toEqual(wrongAnswer);
    expect((await throttled(unlock(dir.id, 'open sesame', '192.0.2.2'))).status).toBe(429);
  });

  it('hashes with bcrypt cost 10 and rehashes an older cost-6 hash at the next right password', async () => {
    const dir = await lockedDirectory('new password');
    expect(await hashOf(dir.id)).toMatch(/^\$2[aby]\$10\$/);

    await db.query(
      "update public.directory_secrets set password_hash = extensions.crypt('old password', extensions.gen_salt('bf', 6)) where directory_id = $1",
      [dir.id],
    );
    expect(await hashOf(dir.id)).toMatch(/^\$2[aby]\$06\$/);
    expect(await unlock(dir.id, 'new password')).toEqual(wrongAnswer);
    expect(await hashOf(dir.id)).toMatch(/^\$2[aby]\$06\$/);
    expect((await unlock(dir.id, 'old password')).value?.links).toHaveLength(1);
    expect(await hashOf(dir.id)).toMatch(/^\$2[aby]\$10\$/);
    expect((await unlock(dir.id, 'old password')).value?.links).toHaveLength(1);
  });

  it('refuses a password over 72 bytes rather than cutting it, and never unlocks with one', async () => {
    const dir = await insertRow<Row>(db, 'link_directories', { name: 'Long', owner_id: owner.id });
    // 36 characters, 72 bytes: accepted. 37 characters, 74 bytes: refused.
    await setPassword(dir.id, 'é'.repeat(36));
    expect(await sqlError(setPassword(dir.id, 'é'.repeat(37)))).toEqual({
      code: '22023',
      message: 'The password can be at most 72 bytes.',
      hint: 'invalid',
    });
    expect((await unlock(dir.id, 'é'.repeat(36))).value?.links).toEqual([]);
    // bcrypt reads 72 bytes: a longer password with the same first 72 bytes must not unlock.
    expect(await unlock(dir.id, `${'é'.repeat(36)}extra`)).toEqual(wrongAnswer);
  });

  it('answers 404 for an unknown or deleted directory and 400 for a missing id', async () => {
    const notAvailable = { code: 'PT404', message: 'This directory is not available', hint: 'not_found' };
    expect(await sqlError(unlock('00000000-0000-4000-8000-000000000000', null))).toEqual(notAvailable);
    const dir = await lockedDirectory();
    await db.query('update public.link_directories set deleted_at = now() where id = $1', [dir.id]);
    expect(await sqlError(unlock(dir.id, 'open sesame'))).toEqual(notAvailable);
    expect(await sqlError(unlock(dir.id, null, '198.51.100.7', owner))).toEqual(notAvailable);
    // Deliberately bad input: a null id, as a client outside the app can send it.
    expect(await sqlError(unlock(null as unknown as string, null))).toEqual({
      code: '22023',
      message: 'A directory id is required.',
      hint: 'invalid',
    });
  });

  it("set_directory_password: 400 for a missing id, 404 for another owner's or a deleted directory", async () => {
    // Deliberately bad input: a null id, as a client outside the app can send it.
    expect(await sqlError(setPassword(null as unknown as string, 'pw'))).toEqual({
      code: '22023',
      message: 'A directory id is required.',
      hint: 'invalid',
    });
    const dir = await lockedDirectory();
    const other = await createUser(db, { tier: 'pro' });
    const notFound = { code: 'PT404', message: 'Directory not found.', hint: 'not_found' };
    expect(await sqlError(setPassword(dir.id, 'pw', other))).toEqual(notFound);
    expect(await sqlError(setPassword('00000000-0000-4000-8000-000000000000', 'pw'))).toEqual(notFound);
    // A null password clears it (directory.update sends null to remove the password).
    await setPassword(dir.id, null);
    expect(await hashOf(dir.id)).toBeUndefined();
  });
});
