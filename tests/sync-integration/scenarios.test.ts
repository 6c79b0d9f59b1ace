/**
 * The sync engine against the local stack in-process, through supabase-js: rejections, shared
 * directories, sessions and conflicts, end to end.
 */
import { whereGroup } from '../../src/data/group-range.ts';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';
import { secretKey } from '../../supabase/local/keys.ts';
import { mutate } from '../../src/data/mutate.ts';
import { createSupabaseTransport } from '../../src/backend/sync-transport.ts';
import { SESSION_EXPIRED, SyncEngine } from '../../src/sync/engine.ts';
import type { SyncStatus } from '../../src/sync/status-store.ts';
import { dbKinds } from '../support/db.ts';
import {
  HeldTimers,
  STACK_URL,
  localView,
  newDirectory,
  newLink,
  serverView,
  signUpUser,
  syncSuite,
  type Device,
} from '../support/sync-harness.ts';

const uuid = () => randomUUID();

describe.each(dbKinds)('sync against the local stack (%s)', (kind) => {
  const suite = syncSuite(kind);
  const { device } = suite;

  it('a first sync brings the profile and a pushed link round-trips to a second device', async () => {
    const user = await signUpUser(suite.stack, { tier: 'pro' });
    const one = device('one', user);
    const two = device('two', user);
    expect(await one.engine.sync()).toBe('synced');
    expect(await one.db.user_profiles.get(user.id)).toMatchObject({ id: user.id, email: user.email });
    const dir = await newDirectory(one);
    const link = await newLink(one, dir, 'hello');
    expect(await one.engine.sync()).toBe('synced');
    expect(await one.db.outbox.count()).toBe(0);
    expect((await one.db.saved_links.get(link))?.txid).toBeTruthy();
    expect(await two.engine.sync()).toBe('synced');
    expect(await two.db.saved_links.get(link)).toMatchObject({ title: 'hello', directory_id: dir });
    expect(await localView(two.db)).toEqual(await serverView(user));
    expect(await localView(one.db)).toEqual(await serverView(user));
  });

  it("rejects a Free user's 31st link made offline, removes it locally and says why", async () => {
    const user = await signUpUser(suite.stack, { tier: 'free' });
    const online = device('online', user);
    const away = device('away', user);
    await online.engine.sync();
    const dir = await newDirectory(online);
    for (let i = 0; i < 29; i += 1) await newLink(online, dir, `l${i}`);
    expect(await online.engine.sync()).toBe('synced');
    expect(await away.engine.sync()).toBe('synced');
    expect(await away.db.saved_links.count()).toBe(29);

    away.transport.offline = true;
    await newLink(online, dir, 'thirtieth');
    expect(await online.engine.sync()).toBe('synced');
    const late = await newLink(away, dir, 'late'); // the 30th as far as this device knows
    expect(await away.engine.sync()).toBe('offline');
    expect(await away.db.saved_links.get(late)).toBeDefined();

    away.transport.offline = false;
    expect(await away.engine.sync()).toBe('synced');
    expect(away.rejected).toEqual(['Upgrade to Pro to save more links.']);
    expect(await away.db.saved_links.get(late)).toBeUndefined();
    expect(await away.db.saved_links.count()).toBe(30);
    expect(await away.db.outbox.count()).toBe(0);
    const { rows } = await suite.stack.db.query<{ n: number }>(
      'select count(*)::int as n from public.saved_links where owner_id = $1 and deleted_at is null',
      [user.id],
    );
    expect(rows[0]?.n).toBe(30);
    expect(await localView(away.db)).toEqual(await serverView(user));
  });

  it('an invitation brings the directory and its links on the next pull; removal purges them', async () => {
    const owner = await signUpUser(suite.stack, { tier: 'pro' });
    const guest = await signUpUser(suite.stack, { tier: 'free' });
    const o = device('owner', owner);
    const g = device('guest', guest);
    await Promise.all([o.engine.sync(), g.engine.sync()]);
    const dir = await newDirectory(o, 'Shared');
    const links = [await newLink(o, dir, 'a'), await newLink(o, dir, 'b')];
    expect(await o.engine.sync()).toBe('synced');
    expect(await g.engine.sync()).toBe('synced');
    expect(await g.db.link_directories.get(dir)).toBeUndefined();

    const member = uuid();
    await mutate(
      o.db,
      'member.invite',
      { id: member, directory_id: dir, user_email: guest.email, role: 'viewer' },
      o.context(),
    );
    expect(await o.engine.sync()).toBe('synced');
    expect(await g.engine.sync()).toBe('synced');
    expect(await g.db.link_directories.get(dir)).toMatchObject({ name: 'Shared', owner_id: owner.id });
    expect((await whereGroup(g.db.saved_links, 'directory_id', dir).primaryKeys()).sort()).toEqual([...links].sort());
    expect(await g.db.directory_members.get(member)).toMatchObject({ user_email: guest.email, role: 'viewer' });
    expect(await localView(g.db)).toEqual(await serverView(guest));

    await mutate(o.db, 'member.remove', { id: member }, o.context());
    expect(await o.engine.sync()).toBe('synced');
    expect(await g.engine.sync()).toBe('synced');
    expect(await g.db.link_directories.get(dir)).toBeUndefined();
    expect(await whereGroup(g.db.saved_links, 'directory_id', dir).count()).toBe(0);
    expect(await g.db.directory_members.where('directory_id').equals(dir).count()).toBe(0);
    expect(await localView(g.db)).toEqual(await serverView(guest));
  });

  async function engineWithToken(d: Device, token: string | null, statuses: SyncStatus[]): Promise<SyncEngine> {
    const fetchAs: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (token === null) request.headers.delete('Authorization');
      else request.headers.set('Authorization', `Bearer ${token}`);
      return suite.stack.app.fetch(request);
    };
    const client = serverClient(STACK_URL, TEST_ANON_KEY, fetchAs);
    return new SyncEngine({
      db: d.db,
      transport: createSupabaseTransport(client),
      context: d.context,
      timers: new HeldTimers(),
      onStatus: (status) => statuses.push(status),
      refreshSession: () => Promise.reject(new Error('Invalid Refresh Token')),
    });
  }

  it('an expired or missing session makes the pull fail with 401 and leaves local data alone', async () => {
    const user = await signUpUser(suite.stack, { tier: 'pro' });
    const d = device('d', user);
    await d.engine.sync();
    const dir = await newDirectory(d);
    await newLink(d, dir, 'kept');
    expect(await d.engine.sync()).toBe('synced');
    const before = await localView(d.db);
    expect(before.saved_links).toHaveLength(1);

    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ sub: user.id, email: user.email, role: 'authenticated', aud: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(secretKey(TEST_JWT_SECRET));

    // The raw calls: 401, never an empty answer.
    for (const token of [expired, null]) {
      const fetchAs: typeof fetch = async (input, init) => {
        const request = new Request(input, init);
        if (token === null) request.headers.delete('Authorization');
        else request.headers.set('Authorization', `Bearer ${token}`);
        return suite.stack.app.fetch(request);
      };
      const client = serverClient(STACK_URL, TEST_ANON_KEY, fetchAs);
      const answer = await client.rpc('sync_pull', { p_cursor: null, p_limit: 10 });
      expect(answer.status).toBe(401);
      expect(answer.data).toBeNull();
      await expect(createSupabaseTransport(client).pull(null, 10)).rejects.toMatchObject({ kind: 'auth', status: 401 });
    }

    for (const token of [expired, null]) {
      const statuses: SyncStatus[] = [];
      const engine = await engineWithToken(d, token, statuses);
      expect(await engine.sync()).toBe('error');
      expect(statuses.at(-1)).toMatchObject({ state: 'error', message: SESSION_EXPIRED });
      expect(await localView(d.db)).toEqual(before);
      engine.stop();
    }

    // A queued change survives a 401 on push too.
    await newLink(d, dir, 'queued');
    const statuses: SyncStatus[] = [];
    const engine = await engineWithToken(d, expired, statuses);
    expect(await engine.sync()).toBe('error');
    expect(await d.db.outbox.count()).toBe(1);
    expect(await d.db.saved_links.count()).toBe(2);
    engine.stop();
    expect(await d.engine.sync()).toBe('synced');
    expect(await localView(d.db)).toEqual(await serverView(user));
  });

  it('a taken username is rejected with the product wording and the local profile restored', async () => {
    const first = await signUpUser(suite.stack, { tier: 'free' });
    const second = await signUpUser(suite.stack, { tier: 'free' });
    const a = device('a', first);
    const b = device('b', second);
    await Promise.all([a.engine.sync(), b.engine.sync()]);
    const name = `taken_${Date.now().toString(36)}`;
    await mutate(a.db, 'profile.update', { username: name }, a.context());
    expect(await a.engine.sync()).toBe('synced');
    expect(a.rejected).toEqual([]);

    const original = await b.db.user_profiles.get(second.id);
    expect(original?.username).not.toBe(name);
    await mutate(b.db, 'profile.update', { username: name, bio: 'hello' }, b.context());
    expect((await b.db.user_profiles.get(second.id))?.username).toBe(name);
    expect(await b.engine.sync()).toBe('synced');
    expect(b.rejected).toEqual(['Failed to save profile. Your username might be taken.']);
    const restored = await b.db.user_profiles.get(second.id);
    expect(restored?.username).toBe(original?.username);
    expect(restored?.bio).toBe(original?.bio);
    expect(await localView(b.db)).toEqual(await serverView(second));
  });
});
