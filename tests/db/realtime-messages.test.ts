/**
 * Supabase Realtime's part of the database as the bootstrap gives it to PGlite and a plain
 * PostgreSQL (supabase/local/bootstrap.sql) and the local stack's relay (supabase/local/realtime-relay.ts):
 * a broadcast reaches the relay only once its transaction commits, never for one rolled back; no
 * client may send (no insert policy: realtime.send as a user stores nothing); who may read a topic
 * is the policy's (supabase/schemas/sync_poke.sql); old messages are swept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { PokeHub } from '../../supabase/local/poke-hub.ts';
import { mayRead } from '../../supabase/local/realtime-auth.ts';
import { startRealtimeRelay, type RealtimeRelay } from '../../supabase/local/realtime-relay.ts';
import { as, createUser, dbKinds, freshDb } from '../support/db.ts';
import { until } from '../support/realtime-listener.ts';

describe.each(dbKinds)('realtime.messages and the relay on %s', (kind) => {
  let db: Db;
  let relay: RealtimeRelay;
  const heard: string[] = [];
  beforeAll(async () => {
    db = await freshDb(kind);
    const hub = new PokeHub({ intervalMs: 0 });
    for (const topic of ['user:a', 'user:b', 'user:c']) hub.listen(topic, (event) => heard.push(`${event} ${topic}`));
    relay = await startRealtimeRelay(db, hub);
  });
  afterAll(async () => {
    await relay.stop();
    await db.close();
  });

  it('relays a broadcast when its transaction commits, never one rolled back', async () => {
    await db
      .transaction(async (tx) => {
        await tx.query("select realtime.send('{}'::jsonb, 'poke', 'user:a', true)");
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.transaction(async (tx) => {
      await tx.query("select realtime.send('{}'::jsonb, 'poke', 'user:b', true)");
      // Not yet: the transaction is still open.
      expect(heard).toEqual([]);
    });
    await until(() => heard.length > 0, 'the committed poke');
    // Commit order is delivery order: a poke of the rolled-back transaction would have come first.
    expect(heard).toEqual(['poke user:b']);
    const { rows } = await db.query<{ topic: string }>("select topic from realtime.messages where event = 'poke'");
    expect(rows.map((row) => row.topic)).toEqual(['user:b']);
  });

  it('lets no client send: realtime.send as a user stores and relays nothing, an insert is refused', async () => {
    const user = await createUser(db);
    await as(db, user, (sql) => sql.query("select realtime.send('{}'::jsonb, 'poke', 'user:c', true)"));
    await expect(
      as(db, user, (sql) =>
        sql.query("insert into realtime.messages (topic, extension, event) values ('user:c', 'broadcast', 'poke')"),
      ),
    ).rejects.toThrow(/row-level security/);
    await db.query("select realtime.send('{}'::jsonb, 'poke', 'user:a', true)");
    await until(() => heard.includes('poke user:a'), 'the server’s own poke');
    expect(heard).not.toContain('poke user:c');
  });

  it('lets a user read their own topic and the board, nobody else’s, and anon nothing', async () => {
    const [user, other] = await Promise.all([createUser(db), createUser(db)]);
    const claims = { sub: user.id, role: 'authenticated', email: user.email };
    expect(await mayRead(db, `user:${user.id}`, claims)).toBe(true);
    expect(await mayRead(db, 'public:voting', claims)).toBe(true);
    expect(await mayRead(db, `user:${other.id}`, claims)).toBe(false);
    expect(await mayRead(db, 'public:other', claims)).toBe(false);
    expect(await mayRead(db, `user:${user.id}\u0000`, claims)).toBe(false);
    expect(await mayRead(db, 'public:voting', { role: 'anon' })).toBe(false);
    // The checks leave nothing behind.
    const { rows } = await db.query('select 1 from realtime.messages where event is null');
    expect(rows).toEqual([]);
  });

  it('sweeps messages older than the retention, keeps the recent ones', async () => {
    await db.query(
      "insert into realtime.messages (topic, extension, event, inserted_at) values ('user:old', 'broadcast', 'poke', now() - interval '1 hour')",
    );
    await relay.sweep();
    const { rows } = await db.query<{ topic: string }>('select topic from realtime.messages order by topic');
    expect(rows.map((row) => row.topic)).toEqual(['user:a', 'user:b']);
  });
});
