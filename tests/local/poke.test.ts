/**
 * The poke (docs/sync-protocol.md, "Poke"): GET /sync/v1/poke streams `event: poke` to the users
 * a committed push concerns, and to nobody else; it carries no data.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStack } from '../../supabase/local/app.ts';
import type { Db } from '../../supabase/local/db.ts';
import { secretKey } from '../../supabase/local/keys.ts';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET, TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';
import { dbKinds, freshDb } from '../support/db.ts';
import { PokeStream } from '../support/poke-stream-reader.ts';

const BASE = 'http://127.0.0.1:54321';
let db: Db;
let call: typeof fetch;

type User = StackUser;
const signUp = (tier: 'free' | 'pro' = 'free'): Promise<User> =>
  signUpConfirmed(call, db, { base: BASE, prefix: 'poke', tier });

async function push(user: User, mutations: { name: string; args: Record<string, unknown> }[]) {
  const { data, error } = await user.client.rpc('sync_push', {
    p_mutations: mutations.map((m) => ({ id: randomUUID(), ...m })),
  });
  expect(error).toBeNull();
  return (data as { results: { status: string }[] }).results.map((result) => result.status);
}

const pokeUrl = (token?: string, apikey: string | null = TEST_ANON_KEY) => {
  const url = new URL('/sync/v1/poke', BASE);
  if (token !== undefined) url.searchParams.set('access_token', token);
  if (apikey !== null) url.searchParams.set('apikey', apikey);
  return url.toString();
};

async function open(user: User): Promise<PokeStream> {
  const response = await call(pokeUrl(user.token));
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toMatch(/text\/event-stream/);
  const stream = new PokeStream(response);
  expect(await stream.next()).toMatchObject({ event: 'ready' });
  return stream;
}

describe.each(dbKinds)('GET /sync/v1/poke on %s', (kind) => {
  beforeAll(async () => {
    db = await freshDb(kind);
    const app = createStack({ db, jwtSecret: TEST_JWT_SECRET, poke: { limits: { perUser: 3, total: 100 } } });
    call = async (input, init) => app.fetch(new Request(input, init));
  });
  afterAll(() => db.close());

  let owner: User;
  let member: User;
  let stranger: User;
  let dir: string;
  const streams: PokeStream[] = [];

  beforeAll(async () => {
    owner = await signUp('pro');
    member = await signUp();
    stranger = await signUp();
    dir = randomUUID();
    expect(
      await push(owner, [
        { name: 'directory.create', args: { id: dir, name: 'Shared' } },
        {
          name: 'member.invite',
          args: { id: randomUUID(), directory_id: dir, user_email: member.email, role: 'viewer' },
        },
      ]),
    ).toEqual(['applied', 'applied']);
  });
  afterAll(async () => {
    for (const stream of streams) await stream.close();
  });

  it('pokes the owner and the member when the owner adds a link to the shared directory, not a stranger', async () => {
    const [o, m, s] = await Promise.all([open(owner), open(member), open(stranger)]);
    streams.push(o, m, s);
    const linkId = randomUUID();
    expect(
      await push(owner, [
        {
          name: 'link.create',
          args: { id: linkId, directory_id: dir, url: 'https://secret.example.com/', title: 'Secret title' },
        },
      ]),
    ).toEqual(['applied']);

    const poke = await m.next();
    expect(poke).toEqual({ event: 'poke', data: '1' });
    expect(await o.next()).toEqual({ event: 'poke', data: '1' });
    expect(await s.next(300)).toBeNull();
    // No data: neither the row nor its directory nor its id.
    for (const text of [m.raw, o.raw]) {
      expect(text).not.toMatch(/secret|Secret|example\.com/);
      expect(text).not.toContain(linkId);
      expect(text).not.toContain(dir);
    }
  });

  it('pokes only the pusher for the pusher’s own rows, and nobody for a rejected push', async () => {
    const [m, s] = await Promise.all([open(member), open(stranger)]);
    streams.push(m, s);
    // The stranger's own event concerns the stranger alone.
    const start = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      await push(stranger, [
        {
          name: 'event.create',
          args: { id: randomUUID(), title: 'Mine', starts_at: start, ends_at: start, is_task: false },
        },
      ]),
    ).toEqual(['applied']);
    expect(await s.next()).toMatchObject({ event: 'poke' });
    expect(await m.next(300)).toBeNull();

    // The stranger cannot write into the directory: rejected, so nobody is poked.
    expect(
      await push(stranger, [
        { name: 'link.create', args: { id: randomUUID(), directory_id: dir, url: 'https://x.example/', title: 'x' } },
      ]),
    ).toEqual(['rejected']);
    // A viewer cannot either.
    expect(
      await push(member, [
        { name: 'link.create', args: { id: randomUUID(), directory_id: dir, url: 'https://x.example/', title: 'x' } },
      ]),
    ).toEqual(['rejected']);
    expect(await s.next(300)).toBeNull();
    expect(await m.next(300)).toBeNull();
  });

  it('pokes a member when the owner removes them, so their device purges the directory', async () => {
    const other = await signUp();
    const memberId = randomUUID();
    expect(
      await push(owner, [
        { name: 'member.invite', args: { id: memberId, directory_id: dir, user_email: other.email, role: 'viewer' } },
      ]),
    ).toEqual(['applied']);
    const stream = await open(other);
    streams.push(stream);
    expect(await push(owner, [{ name: 'member.remove', args: { id: memberId } }])).toEqual(['applied']);
    expect(await stream.next()).toMatchObject({ event: 'poke' });
  });

  it('pokes the user whose plan a billing event changed, and nobody for a replay', async () => {
    const [m, s2] = await Promise.all([open(member), open(stranger)]);
    streams.push(m, s2);
    // A poke from an earlier test's push may still be on its way (pokes follow the commit
    // asynchronously): let it arrive before counting this test's own.
    while ((await m.next(500)) !== null || (await s2.next(100)) !== null);
    const service = serverClient(BASE, TEST_SERVICE_ROLE_KEY, call);
    const event = {
      id: `evt_${randomUUID()}`,
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      user_id: member.id,
      status: 'active',
      plan: 'pro',
      billing_cycle: 'monthly',
    };
    const first = await service.rpc('apply_billing_event', { p_event: event });
    expect(first.data).toMatchObject({ outcome: 'applied', tier: 'pro' });
    expect(await m.next()).toMatchObject({ event: 'poke' });
    expect(await s2.next(300)).toBeNull();
    const replay = await service.rpc('apply_billing_event', { p_event: event });
    expect(replay.data).toEqual({ outcome: 'duplicate' });
    expect(await m.next(300)).toBeNull();
  });

  it('refuses a missing, forged or expired token and a missing API key with 401', async () => {
    expect((await call(pokeUrl())).status).toBe(401);
    expect((await call(pokeUrl('not-a-jwt'))).status).toBe(401);
    const forged = await new SignJWT({ role: 'authenticated', sub: member.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(secretKey('x'.repeat(40)));
    expect((await call(pokeUrl(forged))).status).toBe(401);
    const expired = await new SignJWT({ role: 'authenticated', sub: member.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(secretKey(TEST_JWT_SECRET));
    expect((await call(pokeUrl(expired))).status).toBe(401);
    expect((await call(pokeUrl(TEST_ANON_KEY))).status).toBe(401);
    expect((await call(pokeUrl(member.token, null))).status).toBe(401);
  });

  it('caps the open streams per user', async () => {
    const user = await signUp();
    const held = await Promise.all([open(user), open(user), open(user)]);
    streams.push(...held);
    const refused = await call(pokeUrl(user.token));
    expect(refused.status).toBe(429);
    await held[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await call(pokeUrl(user.token));
    expect(again.status).toBe(200);
    streams.push(new PokeStream(again));
  });
});
