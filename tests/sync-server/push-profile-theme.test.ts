import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { createUser, dbKinds, freshDb } from '../support/db.ts';
import { mutation, pull, push } from './sync.ts';

/** The profile's theme (docs/product.md, Profile): synced like any other profile field. */
describe.each(dbKinds)('sync_push profile theme (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('starts as system, then keeps the chosen theme and leaves the other fields', async () => {
    const user = await createUser(db);
    const [zone] = await push(db, user, mutation('profile.update', { time_zone: 'Europe/Paris' }));
    expect(zone!.rows.user_profiles![0]).toMatchObject({ theme: 'system' });
    const [dark] = await push(db, user, mutation('profile.update', { theme: 'dark' }));
    expect(dark!.status).toBe('applied');
    expect(dark!.rows.user_profiles![0]).toMatchObject({ theme: 'dark', time_zone: 'Europe/Paris' });
    const [bio] = await push(db, user, mutation('profile.update', { bio: 'Hi' }));
    expect(bio!.rows.user_profiles![0]).toMatchObject({ theme: 'dark', bio: 'Hi' });
    // Another device of the same user pulls it.
    const page = await pull(db, user, null);
    expect(page.changes.user_profiles?.find((row) => row.id === user.id)).toMatchObject({ theme: 'dark' });
  });

  it.each([['purple'], [null], [1], ['Dark'], [' dark']])(
    'refuses %j as invalid and changes nothing',
    async (theme) => {
      const user = await createUser(db);
      await push(db, user, mutation('profile.update', { theme: 'light' }));
      const [bad] = await push(db, user, mutation('profile.update', { theme, bio: 'kept?' }));
      expect(bad).toMatchObject({ status: 'rejected', code: 'invalid' });
      const rows = await db.query<{ theme: string; bio: string }>(
        'select theme, bio from public.user_profiles where id = $1',
        [user.id],
      );
      expect(rows.rows[0]).toEqual({ theme: 'light', bio: '' });
    },
  );
});
