import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { createStack } from '../../supabase/local/app.ts';
import type { Db } from '../../supabase/local/db.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';
import { confirmEmail } from '../support/confirm-email.ts';
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

interface Owner {
  id: string;
  email: string;
  token: string;
  client: SupabaseClient;
}

let counter = 0;
async function signUp(tier: 'free' | 'pro' = 'free'): Promise<Owner> {
  const client = serverClient(BASE, TEST_ANON_KEY, call);
  const email = `endpoints-${Date.now().toString(36)}-${counter++}@example.com`;
  const { data, error } = await client.auth.signUp({ email, password: 'password-123' });
  if (error || !data.session || !data.user) throw new Error(`sign-up failed: ${error?.message}`);
  await confirmEmail(call, BASE, email);
  if (tier !== 'free') {
    await db.query('update public.user_profiles set subscription_tier = $2 where id = $1', [data.user.id, tier]);
  }
  return { id: data.user.id, email, token: data.session.access_token, client };
}

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
