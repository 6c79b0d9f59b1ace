import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { as, createUser, dbKinds, freshDb } from '../support/db.ts';
import { mutation, pull } from './sync.ts';

/**
 * Every sync answer says what the server's clock reads (docs/sync-protocol.md), so a device whose
 * clock is off learns the offset (src/backend/server-clock.ts).
 */
describe.each(dbKinds)('sync answers carry the server time (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  it('a pull and a push answer server_time_ms, the epoch milliseconds as the answer left', async () => {
    const user = await createUser(db);
    const before = Date.now();
    const page = (await pull(db, user, null)) as unknown as { server_time_ms: unknown };
    const { rows } = await as(db, user, (sql) =>
      sql.query<{ r: { server_time_ms: unknown; results: unknown[] } }>('select public.sync_push($1::jsonb) as r', [
        JSON.stringify([mutation('profile.update', { bio: 'clock' })]),
      ]),
    );
    const after = Date.now();
    for (const answer of [page, rows[0]!.r]) {
      expect(typeof answer.server_time_ms).toBe('number');
      // The database runs on this machine: its clock is this process's, give or take a second.
      expect(answer.server_time_ms as number).toBeGreaterThanOrEqual(before - 1000);
      expect(answer.server_time_ms as number).toBeLessThanOrEqual(after + 1000);
    }
    expect(rows[0]!.r.results).toHaveLength(1);
  });
});
