/** link.create's optional created_at (an imported bookmark's ADD_DATE) on the server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb } from '../support/db.ts';
import { makeDirectory, mutation, push, uuid } from './sync.ts';

describe.each(dbKinds)('link.create created_at (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  async function createdAt(id: string): Promise<Date> {
    const { rows } = await db.query<{ created_at: Date | string }>(
      'select created_at from public.saved_links where id = $1',
      [id],
    );
    return new Date(rows[0]!.created_at);
  }

  const link = (directoryId: string, createdAt?: unknown) => ({
    id: uuid(),
    directory_id: directoryId,
    url: 'https://a.example',
    title: 'A',
    ...(createdAt === undefined ? {} : { created_at: createdAt }),
  });

  it('keeps a past creation time, and uses now when none is given', async () => {
    const user = await createUser(db);
    const dir = await makeDirectory(db, user);
    const old = link(dir.id, '2012-03-04T05:06:07.000Z');
    const plain = link(dir.id);
    const nulled = link(dir.id, null);
    const results = await push(db, user, ...[old, plain, nulled].map((args) => mutation('link.create', args)));
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    expect((await createdAt(old.id)).toISOString()).toBe('2012-03-04T05:06:07.000Z');
    expect(Date.now() - (await createdAt(plain.id)).getTime()).toBeLessThan(60_000);
    expect(Date.now() - (await createdAt(nulled.id)).getTime()).toBeLessThan(60_000);
    // The answer's canonical row carries it, so the client keeps the same time.
    expect(new Date(String(results[0]!.rows.saved_links![0]!.created_at)).toISOString()).toBe(
      '2012-03-04T05:06:07.000Z',
    );
  });

  it('clamps a time less than a minute ahead (clock skew) to now', async () => {
    const user = await createUser(db);
    const dir = await makeDirectory(db, user);
    const ahead = link(dir.id, new Date(Date.now() + 30_000).toISOString());
    const [result] = await push(db, user, mutation('link.create', ahead));
    expect(result).toMatchObject({ status: 'applied' });
    expect((await createdAt(ahead.id)).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    ['before 1990', '1989-12-31T23:59:59.000Z'],
    ['in the future', new Date(Date.now() + 3_600_000).toISOString()],
    ['not an instant', 'yesterday'],
    ['without its offset', '2012-03-04T05:06:07'],
    ['an impossible date', '2012-13-40T05:06:07Z'],
    ['not text', 1330837567],
  ])('refuses a creation time %s with the product-style wording', async (_label, value) => {
    const user = await createUser(db);
    const dir = await makeDirectory(db, user);
    const [result] = await push(db, user, mutation('link.create', link(dir.id, value)));
    expect(result).toMatchObject({ status: 'rejected', code: 'invalid', message: 'Invalid creation date.' });
  });

  it('never lets link.update change the creation time', async () => {
    const user = await createUser(db);
    const dir = await makeDirectory(db, user);
    const args = link(dir.id, '2015-06-07T08:09:10.000Z');
    await push(db, user, mutation('link.create', args));
    const [result] = await push(
      db,
      user,
      mutation('link.update', { id: args.id, title: 'B', created_at: '2001-01-01T00:00:00.000Z' }),
    );
    expect(result).toMatchObject({ status: 'applied' });
    expect((await createdAt(args.id)).toISOString()).toBe('2015-06-07T08:09:10.000Z');
  });
});
