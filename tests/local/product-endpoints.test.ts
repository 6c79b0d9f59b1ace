import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStack } from '../../supabase/local/app.ts';
import { anonRpc } from '../../src/backend/anon-rpc.ts';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import type { Db } from '../../supabase/local/db.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';
import { freshDb } from '../support/db.ts';

const BASE = 'http://127.0.0.1:54321';
let db: Db;
let call: typeof fetch;

beforeAll(async () => {
  db = await freshDb();
  const app = createStack({ db, jwtSecret: TEST_JWT_SECRET });
  call = async (input, init) => app.fetch(new Request(input, init));
});
afterAll(() => db.close());

type Owner = StackUser;
const signUp = (tier: 'free' | 'pro' = 'free'): Promise<Owner> =>
  signUpConfirmed(call, db, { base: BASE, prefix: 'endpoints', tier });

async function push(owner: Owner, mutations: { name: string; args: Record<string, unknown> }[]) {
  const { data, error } = await owner.client.rpc('sync_push', {
    p_mutations: mutations.map((m) => ({ id: randomUUID(), ...m })),
  });
  expect(error).toBeNull();
  for (const result of (data as { results: { status: string }[] }).results)
    expect(result).toMatchObject({ status: 'applied' });
}

async function directoryWithLinks(owner: Owner, args: Record<string, unknown>, links = 2): Promise<string> {
  const id = randomUUID();
  await push(owner, [
    { name: 'directory.create', args: { id, name: `Dir ${id.slice(0, 4)}`, ...args } },
    ...Array.from({ length: links }, (_, i) => ({
      name: 'link.create',
      args: { id: randomUUID(), directory_id: id, url: `https://example.com/${i}`, title: `Link ${i}` },
    })),
  ]);
  return id;
}

const get = (path: string, headers: Record<string, string> = {}) => call(`${BASE}${path}`, { headers });

describe('GET /api/public-directory', () => {
  it('answers {directory, links} for a public directory, 404 for private or missing, 400 for a bad id', async () => {
    const owner = await signUp('pro');
    const open = await directoryWithLinks(owner, { is_public: true, description: 'Shared' });
    const res = await get(`/api/public-directory?dirId=${open}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { directory: { id: string; description: string }; links: unknown[] };
    expect(body.directory).toMatchObject({ id: open, description: 'Shared' });
    expect(body.links).toHaveLength(2);
    expect(body.links[0]).toMatchObject({ url: expect.stringMatching(/^https:\/\/example\.com\//) });

    const closed = await directoryWithLinks(owner, { is_public: false }, 1);
    expect((await get(`/api/public-directory?dirId=${closed}`)).status).toBe(404);
    expect((await get(`/api/public-directory?dirId=${randomUUID()}`)).status).toBe(404);
    expect((await get('/api/public-directory?dirId=not-a-uuid')).status).toBe(400);
    expect((await get('/api/public-directory')).status).toBe(400);

    const asOwner = await get(`/api/public-directory?dirId=${closed}`, { Authorization: `Bearer ${owner.token}` });
    expect(asOwner.status).toBe(200);
    expect((await get(`/api/public-directory?dirId=${closed}`, { Authorization: 'Bearer forged' })).status).not.toBe(
      500,
    );
  });

  it('refuses a password-protected directory with 403 until the right password is given', async () => {
    const owner = await signUp('pro');
    const dir = await directoryWithLinks(owner, { is_public: true, password: 'open sesame' }, 1);
    const none = await get(`/api/public-directory?dirId=${dir}`);
    expect(none.status).toBe(403);
    expect(await none.json()).toMatchObject({ reason: 'password_required' });
    const wrong = await get(`/api/public-directory?dirId=${dir}`, { 'X-Directory-Password': 'nope' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ error: 'Wrong password.' });
    const right = await get(`/api/public-directory?dirId=${dir}`, { 'X-Directory-Password': 'open sesame' });
    expect(right.status).toBe(200);
    expect(JSON.stringify(await right.json())).not.toMatch(/password_hash|\$2[aby]\$/);
  });
});

describe('password guesses, throttled in the database', () => {
  const guess = (dir: string, password: string, address: string) =>
    get(`/api/public-directory?dirId=${dir}`, { 'X-Directory-Password': password, 'X-Forwarded-For': address });

  it('answers 429 with Retry-After after 10 wrong passwords from one address; other addresses still unlock', async () => {
    const owner = await signUp('pro');
    const dir = await directoryWithLinks(owner, { is_public: true, password: 'open sesame' }, 1);
    for (let i = 0; i < 10; i++) {
      const wrong = await guess(dir, `guess ${i}`, '198.51.100.90');
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toEqual({ error: 'Wrong password.', reason: 'wrong_password' });
    }
    const throttled = await guess(dir, 'open sesame', '198.51.100.90');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await throttled.json()).toEqual({
      error: 'Too many attempts. Please wait a few minutes and try again.',
      reason: 'throttled',
    });
    expect((await guess(dir, 'open sesame', '198.51.100.91')).status).toBe(200);
  });

  // The database answers a wrong password with PostgREST's error body and response.status 403
  // (so the attempt it records is committed); the stack applies the status as PostgREST does.
  it('answers a wrong password through the RPC as a 403 error with hint forbidden, and keeps the attempt', async () => {
    const owner = await signUp('pro');
    const dir = await directoryWithLinks(owner, { is_public: true, password: 'open sesame' }, 1);
    const visitor = serverClient(BASE, TEST_ANON_KEY, call);
    const wrong = await visitor.rpc('get_public_directory', { p_directory_id: dir, p_password: 'nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.error).toMatchObject({ message: 'Wrong password.', hint: 'forbidden' });
    const { rows } = await db.query<{ n: string }>(
      "select count(*) as n from private.throttle_attempts where bucket = 'directory_password_all' and subject = $1",
      [dir],
    );
    expect(Number(rows[0]?.n)).toBe(1);
    // The visitor pages' plain-fetch client reads the same answers as supabase-js.
    const target = { url: BASE, key: TEST_ANON_KEY, fetcher: call };
    const plain = await anonRpc('get_public_directory', { p_directory_id: dir, p_password: 'nope' }, target);
    expect(plain).toEqual({
      data: null,
      status: 403,
      error: { code: wrong.error?.code ?? null, message: 'Wrong password.', hint: 'forbidden' },
    });
    const open = await anonRpc<{ directory: { id: string }; links: unknown[] }>(
      'get_public_directory',
      { p_directory_id: dir, p_password: 'open sesame' },
      target,
    );
    expect(open.status).toBe(200);
    expect(open.data?.directory.id).toBe(dir);
    expect(open.data?.links).toHaveLength(1);
  });

  it('throttles the RPC itself too (what the app calls), keyed on the address the stack sets', async () => {
    const owner = await signUp('pro');
    const dir = await directoryWithLinks(owner, { is_public: true, password: 'open sesame' }, 1);
    const rpc = (password: string, address: string) =>
      call(`${BASE}/rest/v1/rpc/get_public_directory`, {
        method: 'POST',
        headers: { apikey: TEST_ANON_KEY, 'Content-Type': 'application/json', 'X-Forwarded-For': address },
        body: JSON.stringify({ p_directory_id: dir, p_password: password }),
      });
    for (let i = 0; i < 10; i++) await rpc(`guess ${i}`, '203.0.113.90');
    const throttled = await rpc('open sesame', '203.0.113.90');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await throttled.json()).toMatchObject({
      message: 'Too many attempts. Please wait a few minutes and try again.',
      hint: 'throttled',
    });
    expect((await rpc('open sesame', '203.0.113.91')).status).toBe(200);
  });
});

describe('RPC answers to bad input', () => {
  const rpc = (fn: string, args: unknown, token = TEST_ANON_KEY, address = '192.0.2.10') =>
    call(`${BASE}/rest/v1/rpc/${fn}`, {
      method: 'POST',
      headers: {
        apikey: TEST_ANON_KEY,
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'X-Forwarded-For': address,
      },
      body: JSON.stringify(args),
    });

  it('answers null, NUL-bearing and over-long arguments with 400 and a plain message, an unknown directory with 404', async () => {
    const user = await signUp();
    const cases: [string, unknown, number, string?][] = [
      ['get_public_directory', { p_directory_id: null }, 400, 'A directory id is required.'],
      ['get_public_directory', { p_directory_id: randomUUID() }, 404, 'This directory is not available'],
      ['get_public_profile', { p_username: null }, 400, 'A username is required.'],
      ['username_available', { p_username: null }, 400, 'A username is required.'],
      ['username_available', { p_username: 'a'.repeat(31) }, 400, 'A username can be at most 30 characters.'],
      ['username_available', { p_username: 'ann\u0000' }, 400],
      ['submit_contact_message', { p_name: null, p_email: null, p_message: null }, 400],
    ];
    for (const [fn, args, status, message] of cases) {
      const res = await rpc(fn, args);
      expect(res.status, `${fn} ${JSON.stringify(args)}`).toBe(status);
      if (message) expect(await res.json()).toMatchObject({ message });
    }
    const signedIn: [string, unknown, string][] = [
      ['claim_username', { p_username: null }, 'Please choose a username (min 3 chars).'],
      ['claim_username', { p_username: 'ann\u0000x' }, ''],
      ['update_my_profile', {}, 'Nothing to update.'],
    ];
    for (const [fn, args, message] of signedIn) {
      const res = await rpc(fn, args, user.token);
      expect(res.status, `${fn} ${JSON.stringify(args)}`).toBe(400);
      if (message) expect(await res.json()).toMatchObject({ message });
    }
    expect((await rpc('get_my_profile', {})).status).toBe(403);
  });

  it('answers the 6th contact message in an hour from one address with 429 and Retry-After', async () => {
    const message = { p_name: 'Ann', p_email: 'ann@example.com', p_message: 'Hello' };
    for (let i = 0; i < 5; i++)
      expect((await rpc('submit_contact_message', message, TEST_ANON_KEY, '192.0.2.55')).status).toBe(200);
    const over = await rpc('submit_contact_message', message, TEST_ANON_KEY, '192.0.2.55');
    expect(over.status).toBe(429);
    expect(over.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await over.json()).toMatchObject({ message: 'Too many messages. Please try again later.' });
    expect((await rpc('submit_contact_message', message, TEST_ANON_KEY, '192.0.2.56')).status).toBe(200);
  });
});

describe('GET /api/my-directories', () => {
  it('answers the directories the caller owns or is a member of, with their links; 401 without a token', async () => {
    const owner = await signUp();
    const member = await signUp();
    const mine = await directoryWithLinks(owner, { is_public: false }, 3);
    const theirs = await directoryWithLinks(member, { is_public: false }, 1);
    await push(member, [
      { name: 'member.invite', args: { id: randomUUID(), directory_id: theirs, user_email: owner.email } },
    ]);
    const stranger = await signUp();
    await directoryWithLinks(stranger, { is_public: true }, 1);

    const res = await get('/api/my-directories', { Authorization: `Bearer ${owner.token}` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { directories: { id: string }[]; links: { directory_id: string }[] };
    expect(body.directories.map((d) => d.id).sort()).toEqual([mine, theirs].sort());
    expect(body.links).toHaveLength(4);
    expect(body.links.every((l) => [mine, theirs].includes(l.directory_id))).toBe(true);
    expect(body.directories[0]).not.toHaveProperty('txid');

    expect((await get('/api/my-directories')).status).toBe(401);
    expect((await get('/api/my-directories', { Authorization: `Bearer ${TEST_ANON_KEY}` })).status).toBe(401);
    expect((await get('/api/my-directories', { Authorization: 'Bearer forged' })).status).toBe(401);
  });
});
