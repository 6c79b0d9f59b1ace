/**
 * GET /api/directory-voting-posts?dirId= (docs/product.md, Server calls): a directory's live team polls,
 * newest first, for its owner and members only; the same empty answer for a directory the caller
 * cannot see as for one that does not exist; 400 for a bad dirId, 401 without a valid token.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmEmail } from '../support/confirm-email.ts';
import { dbKinds } from '../support/db.ts';
import { anonKey, startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';

interface Account {
  id: string;
  email: string;
  token: string;
  client: SupabaseClient;
}

interface Post {
  id: string;
  title: string;
  directory_id: string;
  options: { text: string; votes: number }[];
}

describe.each(dbKinds)('GET /api/directory-voting-posts (%s)', (kind) => {
  let stack: TestStack;
  let owner: Account;
  let member: Account;
  let stranger: Account;
  let dir: string;
  let otherDir: string;
  let first: string;
  let second: string;

  const get = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
    stack.fetch(`${URL_BASE}${path}`, { ...init, headers });
  const postsOf = (account: Pick<Account, 'token'>, dirId: string) =>
    get(`/api/directory-voting-posts?dirId=${dirId}`, { Authorization: `Bearer ${account.token}` });

  async function signUp(tier: 'free' | 'team' = 'free'): Promise<Account> {
    const client = stack.client();
    const email = uniqueEmail('polls');
    const { data, error } = await client.auth.signUp({ email, password: 'password-123' });
    if (error || !data.session || !data.user) throw new Error(`sign-up failed: ${error?.message}`);
    await confirmEmail(stack.fetch, URL_BASE, email);
    if (tier !== 'free') {
      await stack.db.query('update public.user_profiles set subscription_tier = $2 where id = $1', [
        data.user.id,
        tier,
      ]);
    }
    return { id: data.user.id, email, token: data.session.access_token, client };
  }

  async function push(account: Account, name: string, args: Record<string, unknown>): Promise<void> {
    const { data, error } = await account.client.rpc('sync_push', {
      p_mutations: [{ id: randomUUID(), name, args }],
    });
    expect(error).toBeNull();
    expect((data as { results: unknown[] }).results[0]).toMatchObject({ status: 'applied' });
  }

  async function poll(account: Account, title: string, directoryId: string | null): Promise<string> {
    const id = randomUUID();
    await push(account, 'poll.create', { id, title, options: ['Yes', 'No'], directory_id: directoryId });
    return id;
  }

  beforeAll(async () => {
    stack = await startTestStack({ kind });
    owner = await signUp('team');
    member = await signUp();
    stranger = await signUp('team');
    dir = randomUUID();
    otherDir = randomUUID();
    await push(owner, 'directory.create', { id: dir, name: 'Team' });
    await push(owner, 'directory.create', { id: otherDir, name: 'Other' });
    await push(owner, 'member.invite', { id: randomUUID(), directory_id: dir, user_email: member.email });
    first = await poll(owner, 'First', dir);
    second = await poll(member, 'Second', dir);
    await poll(owner, 'Public', null);
    await poll(owner, 'Elsewhere', otherDir);
    const hidden = await poll(owner, 'Hidden', dir);
    const gone = await poll(owner, 'Gone', dir);
    await stack.db.query('update public.voting_posts set is_active = false where id = $1', [hidden]);
    await stack.db.query('update public.voting_posts set deleted_at = now() where id = $1', [gone]);
  });
  afterAll(() => stack.close());

  it("answers the directory's live team polls, newest first, to its owner and members", async () => {
    for (const account of [owner, member]) {
      const res = await postsOf(account, dir);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toMatch(/application\/json/);
      const body = (await res.json()) as { posts: Post[] };
      expect(body.posts.map((post) => post.id)).toEqual([second, first]);
      expect(body.posts[1]).toMatchObject({
        title: 'First',
        directory_id: dir,
        options: [
          { text: 'Yes', votes: 0 },
          { text: 'No', votes: 0 },
        ],
      });
      expect(body.posts[0]).not.toHaveProperty('txid');
    }
    // The id is matched whatever its letter case.
    const upper = await postsOf(owner, dir.toUpperCase());
    expect(((await upper.json()) as { posts: Post[] }).posts).toHaveLength(2);
  });

  it('answers the same empty list for a directory the caller cannot see as for one that does not exist', async () => {
    const hidden = await postsOf(stranger, dir);
    const missing = await postsOf(stranger, randomUUID());
    expect([hidden.status, missing.status]).toEqual([200, 200]);
    expect(await hidden.json()).toEqual({ posts: [] });
    expect(await missing.json()).toEqual({ posts: [] });
    // A member of one directory sees nothing of another of the same owner.
    expect(await (await postsOf(member, otherDir)).json()).toEqual({ posts: [] });
  });

  it('answers a removed member an empty list', async () => {
    const leaver = await signUp();
    const membership = randomUUID();
    await push(owner, 'member.invite', { id: membership, directory_id: dir, user_email: leaver.email });
    expect(((await (await postsOf(leaver, dir)).json()) as { posts: Post[] }).posts).toHaveLength(2);
    await push(owner, 'member.remove', { id: membership });
    expect(await (await postsOf(leaver, dir)).json()).toEqual({ posts: [] });
  });

  it('answers 400 with a JSON error for a missing or malformed dirId, never 500', async () => {
    const auth = { Authorization: `Bearer ${owner.token}` };
    const bad = [
      '',
      '?dirId=',
      '?dirId=not-a-uuid',
      `?dirId=${dir}x`,
      `?dirId=${dir.slice(1)}`,
      `?dirId=${encodeURIComponent(`${dir}' or 1=1 --`)}`,
      `?dirId=%00${dir}`,
      `?dirId=${'a'.repeat(10_000)}`,
      `?dirId=${dir}&dirId=${otherDir}`,
      `?dirid=${dir}`,
    ];
    for (const query of bad) {
      const res = await get(`/api/directory-voting-posts${query}`, auth);
      expect(res.status, query.slice(0, 80)).toBe(400);
      expect(await res.json()).toEqual({ error: 'dirId must be a directory id (uuid)' });
    }
  });

  it('answers 401 without a valid token, 405 to other methods, 204 to a preflight', async () => {
    const path = `/api/directory-voting-posts?dirId=${dir}`;
    const tokens: Record<string, string>[] = [
      {},
      { Authorization: `Bearer ${anonKey}` },
      { Authorization: 'Bearer forged' },
    ];
    for (const headers of tokens) {
      const res = await get(path, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toHaveProperty('error');
    }
    // Without a token the token is what is missing, whatever the dirId.
    expect((await get('/api/directory-voting-posts?dirId=nope')).status).toBe(401);
    const post = await get(path, { Authorization: `Bearer ${owner.token}` }, { method: 'POST' });
    expect(post.status).toBe(405);
    expect((await get(path, {}, { method: 'OPTIONS' })).status).toBe(204);
  });

  it('answers the same through /functions/v1 with supabase-js', async () => {
    const { data, error } = await owner.client.functions.invoke(`directory-voting-posts?dirId=${dir}`, {
      method: 'GET',
    });
    expect(error).toBeNull();
    expect((data as { posts: Post[] }).posts.map((post) => post.id)).toEqual([second, first]);
  });
});
