/**
 * The push subscription RPCs of supabase/schemas/push.sql. Signed-in users save and
 * delete their own device's subscription (validated, throttled, at most 10 devices); anon may do
 * neither, nobody may take over or delete another user's endpoint, and no client role reaches the
 * table, the claim or the sender's forget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../supabase/local/db.ts';
import { anonymous, as, createUser, dbKinds, freshDb, sqlError, type Actor } from '../support/db.ts';

const endpoint = () => `https://fcm.googleapis.com/fcm/send/${randomUUID()}`;
const p256dh = () => `B${randomBytes(64).toString('base64url').slice(0, 86)}`;
const authKey = () => randomBytes(16).toString('base64url');

describe.each(dbKinds)('push subscriptions (%s)', (kind) => {
  let db: Db;
  beforeAll(async () => {
    db = await freshDb(kind);
  });
  afterAll(() => db.close());

  const save = (actor: Actor, url: string, key = p256dh(), secret = authKey()) =>
    as(db, actor, (sql) => sql.query('select public.save_push_subscription($1, $2, $3)', [url, key, secret]));
  const remove = async (actor: Actor, url: string) =>
    (
      await as(db, actor, (sql) =>
        sql.query<{ found: boolean }>('select public.delete_push_subscription($1) as found', [url]),
      )
    ).rows[0]?.found;
  const owners = async (url: string) =>
    (await db.query<{ user_id: string }>('select user_id from public.push_subscriptions where endpoint = $1', [url]))
      .rows;

  it("saves, refreshes and deletes the caller's own device", async () => {
    const me = await createUser(db);
    const url = endpoint();
    await save(me, url);
    const key = p256dh();
    await save(me, url, key);
    const { rows } = await db.query<{ p256dh: string; user_id: string }>(
      'select p256dh, user_id from public.push_subscriptions where endpoint = $1',
      [url],
    );
    expect(rows).toEqual([{ p256dh: key, user_id: me.id }]);
    expect(await remove(me, url)).toBe(true);
    expect(await remove(me, url)).toBe(false);
    expect(await owners(url)).toEqual([]);
  });

  it("refuses anon, and never lets another user take over or delete someone's endpoint", async () => {
    const [owner, other] = [await createUser(db), await createUser(db)];
    const url = endpoint();
    expect((await sqlError(save(anonymous, url))).code).toBe('42501');
    expect((await sqlError(remove(anonymous, url))).code).toBe('42501');
    await save(owner, url);
    expect(await sqlError(save(other, url))).toMatchObject({ code: '42501', hint: 'forbidden' });
    expect(await remove(other, url)).toBe(false);
    expect(await owners(url)).toEqual([{ user_id: owner.id }]);
  });

  it('refuses an endpoint that is not an https host name, or malformed keys', async () => {
    const me = await createUser(db);
    const bad: [string, string?, string?][] = [
      [`http://fcm.googleapis.com/fcm/send/${randomUUID()}`],
      ['https://127.0.0.1/push/x'],
      ['https://localhost/push/x'],
      ['https://[::1]/push/x'],
      ['javascript:alert(1)'],
      [`https://fcm.googleapis.com/${'a'.repeat(2000)}`],
      [endpoint(), 'B' + 'a'.repeat(85)],
      [endpoint(), 'A' + 'a'.repeat(86)],
      [endpoint(), undefined, 'short'],
      [endpoint(), undefined, 'a'.repeat(21) + '='],
    ];
    for (const [url, key, secret] of bad) {
      expect(await sqlError(save(me, url, key, secret)), url.slice(0, 60)).toMatchObject({
        code: '22023',
        hint: 'invalid',
      });
    }
  });

  it('keeps at most 10 devices per user, forgetting the one unused longest', async () => {
    const me = await createUser(db);
    const urls = Array.from({ length: 11 }, endpoint);
    for (const [i, url] of urls.entries()) {
      await save(me, url);
      await db.query(
        `update public.push_subscriptions set last_used_at = now() - make_interval(mins => $2) where endpoint = $1`,
        [url, 100 - i],
      );
    }
    const { rows } = await db.query<{ endpoint: string }>(
      'select endpoint from public.push_subscriptions where user_id = $1',
      [me.id],
    );
    expect(rows.map((row) => row.endpoint).sort()).toEqual(urls.slice(1).sort());
  });

  it('throttles saving to 30 an hour per user', async () => {
    const me = await createUser(db);
    const url = endpoint();
    for (let i = 0; i < 30; i++) await save(me, url);
    expect((await sqlError(save(me, url))).message).toContain('over_request_rate_limit');
  });

  it('gives client roles no access to the table, the claim or the forget', async () => {
    const me = await createUser(db);
    for (const actor of [anonymous, me]) {
      for (const statement of [
        'select * from public.push_subscriptions',
        'select * from public.claim_due_reminders(now(), 10)',
        "select public.forget_push_subscription('https://fcm.googleapis.com/x')",
        'select * from private.reminder_deliveries',
      ]) {
        expect((await sqlError(as(db, actor, (sql) => sql.query(statement)))).code, statement).toBe('42501');
      }
    }
  });
});
