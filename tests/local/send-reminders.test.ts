/**
 * The server half of reminders: send-reminders claims the due reminders and pushes
 * each once per device to a fake push service (node:http on 127.0.0.1), with the TTL, the VAPID
 * Authorization and aes128gcm; never for a completed task, a deleted event, an event without a
 * reminder or one missed by more than 10 minutes; once per occurrence of a series; a 410 forgets
 * the device; concurrent rounds never send twice; only the service role or the secret may run it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import { createStack } from '../../supabase/local/app.ts';
import { newVapidKeys } from '../../supabase/local/push-settings.ts';
import type { Db } from '../../supabase/local/db.ts';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { sendDueReminders } from '../../supabase/functions/_shared/reminder-delivery.ts';
import { webPushSender } from '../../supabase/functions/_shared/web-push-sender.ts';
import { createUser, dbKinds, freshDb, insertRow } from '../support/db.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET, TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { startFakePushService, type FakePushService } from './fake-push-service.ts';

const BASE = 'http://127.0.0.1:54321';
const CRON_SECRET = 'a-reminders-cron-secret-for-tests';
const MINUTE = 60_000;
const vapid = { ...newVapidKeys(), subject: 'mailto:reminders@example.com', cronSecret: CRON_SECRET };

describe.each(dbKinds)('send-reminders (%s)', (kind) => {
  let db: Db;
  let app: Hono;
  let push: FakePushService;
  let service: SupabaseClient;

  beforeAll(async () => {
    db = await freshDb(kind);
    app = createStack({ db, jwtSecret: TEST_JWT_SECRET, push: vapid });
    service = serverClient(BASE, TEST_SERVICE_ROLE_KEY, async (input, init) => app.fetch(new Request(input, init)));
    push = await startFakePushService();
  });
  afterAll(async () => {
    await push.close();
    await db.close();
  });

  const user = async () => (await createUser(db, { tier: 'pro' })).id;
  const device = async (userId: string) => {
    const subscription = push.subscription();
    await insertRow(db, 'push_subscriptions', { user_id: userId, ...subscription });
    return subscription.endpoint;
  };
  const event = (
    ownerId: string,
    startsAt: Date,
    fields: { reminder?: number | null; isTask?: boolean; done?: boolean; deleted?: boolean; series?: string } = {},
  ) =>
    insertRow<{ id: string }>(db, 'calendar_events', {
      owner_id: ownerId,
      title: 'Dentist',
      starts_at: startsAt.toISOString(),
      reminder_minutes: fields.reminder === undefined ? 15 : fields.reminder,
      is_task: fields.isTask ?? false,
      is_completed: fields.done ?? false,
      deleted_at: fields.deleted ? new Date().toISOString() : null,
      series_id: fields.series ?? null,
      recurrence_rule: fields.series ? 'daily' : 'none',
    });
  const round = (now: Date) => sendDueReminders({ client: service, send: webPushSender(vapid), siteUrl: BASE, now });
  const callFunction = (headers: Record<string, string>, method = 'POST') =>
    app.fetch(new Request(`${BASE}/functions/v1/send-reminders`, { method, headers }));

  it('pushes a due reminder once to each device, with the TTL, the VAPID signature and aes128gcm', async () => {
    const owner = await user();
    const [phone, laptop] = [await device(owner), await device(owner)];
    await event(owner, new Date(Date.now() + 15 * MINUTE));

    const first = await callFunction({ Authorization: `Bearer ${TEST_SERVICE_ROLE_KEY}` });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ sent: 2, failed: 0, gone: 0 });
    for (const endpoint of [phone, laptop]) {
      const [request, ...more] = push.to(endpoint);
      expect(more).toEqual([]);
      expect(request).toMatchObject({ method: 'POST' });
      expect(request!.bodyBytes).toBeGreaterThan(0);
      expect(request!.headers).toMatchObject({ ttl: '600', 'content-encoding': 'aes128gcm', urgency: 'high' });
      const auth = /^vapid t=([\w-]+)\.([\w-]+)\.[\w-]+, k=([\w-]+)$/.exec(request!.headers.authorization ?? '');
      expect(auth?.[3]).toBe(vapid.publicKey);
      const claims = JSON.parse(Buffer.from(auth![2]!, 'base64url').toString()) as { aud: string; sub: string };
      expect(claims).toMatchObject({ aud: push.origin, sub: 'mailto:reminders@example.com' });
    }

    const second = await callFunction({ Authorization: `Bearer ${TEST_SERVICE_ROLE_KEY}` });
    expect(await second.json()).toEqual({ sent: 0, failed: 0, gone: 0 });
    expect(push.to(phone)).toHaveLength(1);
    expect(push.to(laptop)).toHaveLength(1);
  });

  it('skips completed tasks, deleted events, events without a reminder and reminders missed by over 10 minutes', async () => {
    const owner = await user();
    const phone = await device(owner);
    const now = new Date('2031-03-03T09:00:00Z');
    const at = (minutes: number) => new Date(now.getTime() + minutes * MINUTE);
    await event(owner, at(15), { isTask: true, done: true });
    await event(owner, at(15), { deleted: true });
    await event(owner, at(15), { reminder: null });
    await event(owner, at(4), { reminder: 15 }); // due 11 minutes ago: dropped
    await event(owner, at(-1), { reminder: 0 }); // due a minute ago: still sent
    await event(owner, at(60), { isTask: true, reminder: 60 }); // an open task, due now

    expect(await round(now)).toEqual({ sent: 2, failed: 0, gone: 0 });
    expect(await round(at(1))).toEqual({ sent: 0, failed: 0, gone: 0 });
    expect(push.to(phone)).toHaveLength(2);
  });

  it('reminds each occurrence of a recurring series once', async () => {
    const owner = await user();
    const phone = await device(owner);
    const series = randomUUID();
    const first = new Date('2031-04-01T08:00:00Z');
    const day = (n: number) => new Date(first.getTime() + n * 1440 * MINUTE);
    for (const n of [0, 1, 2]) await event(owner, day(n), { reminder: 60, series });

    for (const n of [0, 1, 2]) {
      const remindAt = new Date(day(n).getTime() - 60 * MINUTE);
      expect(await round(remindAt)).toEqual({ sent: 1, failed: 0, gone: 0 });
      expect(await round(new Date(remindAt.getTime() + 5 * MINUTE))).toEqual({ sent: 0, failed: 0, gone: 0 });
    }
    expect(push.to(phone)).toHaveLength(3);
    const { rows } = await db.query<{ n: number }>(
      'select count(distinct starts_at)::int as n from private.reminder_deliveries where starts_at >= $1',
      [first.toISOString()],
    );
    expect(rows[0]?.n).toBeGreaterThanOrEqual(3);
  });

  it('forgets a device the push service says is gone (410)', async () => {
    const owner = await user();
    const [kept, gone] = [await device(owner), await device(owner)];
    push.answer(gone, 410);
    const now = new Date('2031-05-05T10:00:00Z');
    await event(owner, new Date(now.getTime() + 15 * MINUTE));

    expect(await round(now)).toEqual({ sent: 1, failed: 0, gone: 1 });
    const { rows } = await db.query<{ endpoint: string }>(
      'select endpoint from public.push_subscriptions where user_id = $1',
      [owner],
    );
    expect(rows.map((row) => row.endpoint)).toEqual([kept]);
  });

  it('never sends twice when rounds run at the same time', async () => {
    const owner = await user();
    const devices = [await device(owner), await device(owner), await device(owner)];
    const now = new Date('2031-06-06T12:00:00Z');
    for (const minutes of [0, 5, 15, 30]) {
      await event(owner, new Date(now.getTime() + minutes * MINUTE), { reminder: minutes });
    }

    const results = await Promise.all([round(now), round(now), round(now)]);
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(12);
    for (const endpoint of devices) expect(push.to(endpoint)).toHaveLength(4);
  });

  it('runs only for the service role or the REMINDERS_CRON_SECRET', async () => {
    const stranger = await createUser(db);
    const { data } = await serverClient(BASE, TEST_ANON_KEY, async (input, init) =>
      app.fetch(new Request(input, init)),
    ).auth.signInWithPassword({ email: stranger.email, password: 'password' });
    expect(data.session).not.toBeNull();

    const refused: Record<string, string>[] = [
      {},
      { Authorization: `Bearer ${TEST_ANON_KEY}` },
      { Authorization: `Bearer ${data.session!.access_token}` },
      { Authorization: `Bearer ${TEST_ANON_KEY}`, 'X-Reminders-Cron-Secret': 'not-the-secret-at-all' },
    ];
    for (const headers of refused) {
      expect((await callFunction(headers)).status, JSON.stringify(headers)).toBe(401);
    }
    expect((await callFunction({ Authorization: `Bearer ${TEST_SERVICE_ROLE_KEY}` }, 'GET')).status).toBe(405);
    const bySecret = await callFunction({
      Authorization: `Bearer ${TEST_ANON_KEY}`,
      'X-Reminders-Cron-Secret': CRON_SECRET,
    });
    expect(bySecret.status).toBe(200);
  });
});
