import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { anonKey, jwtSecret, serviceKey, startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';
import { dbKinds } from '../support/db.ts';

/** Throwaway functions with row-level security behind them, for the RPC contract alone. */
const fixtures = `
create table public.lbtest_notes (id serial primary key, owner uuid not null default auth.uid(), body text not null check (body <> ''));
alter table public.lbtest_notes enable row level security;
create policy lbtest_notes_select on public.lbtest_notes for select using (owner = auth.uid());
create policy lbtest_notes_insert on public.lbtest_notes for insert with check (owner = auth.uid());
create function public.lbtest_add_note(p_body text) returns public.lbtest_notes language sql volatile
  as $$ insert into public.lbtest_notes (body) values (p_body) returning * $$;
create function public.lbtest_my_notes() returns setof public.lbtest_notes language sql stable
  as $$ select * from public.lbtest_notes order by id $$;
create function public.lbtest_whoami() returns json language sql stable
  as $$ select json_build_object('role', auth.role(), 'uid', auth.uid(), 'user', current_user) $$;
create function public.lbtest_add(a int, b int default 1) returns int language sql immutable as $$ select a + b $$;
create function public.lbtest_fail(p_message text) returns void language plpgsql
  as $$ begin raise exception '%', p_message using hint = 'a hint', detail = 'some detail'; end $$;
create function public.lbtest_noop() returns void language sql as $$ select $$;
create function public.lbtest_series(n int) returns setof int language sql immutable as $$ select generate_series(1, n) $$;
create function public.lbtest_pairs() returns table (k text, v int) language sql stable as $$ values ('a', 1), ('b', 2) $$;
create function public.lbtest_status(p_status text, p_headers text default null) returns json language plpgsql volatile
  as $$ begin
    perform set_config('response.status', p_status, true);
    if p_headers is not null then perform set_config('response.headers', p_headers, true); end if;
    return json_build_object('code', 'x', 'message', 'Wrong password.', 'hint', 'forbidden');
  end $$;
create table public.lbtest_calls (n serial primary key, status text not null);
create function public.lbtest_status_logged(p_status text) returns json language plpgsql volatile security definer
  set search_path = public as $$ begin
    insert into public.lbtest_calls (status) values (p_status);
    perform set_config('response.status', p_status, true);
    return json_build_object('status', p_status);
  end $$;
create function public.lbtest_echo(p_tags text[], p_doc jsonb, p_at timestamptz) returns json language sql immutable
  as $$ select json_build_object('tags', p_tags, 'doc', p_doc, 'year', extract(year from p_at at time zone 'UTC')) $$;
`;

describe.each(dbKinds)('on %s', (kind) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ kind });
    await stack.db.exec(fixtures);
  });
  afterAll(() => stack.close());

  async function signedIn() {
    const client = stack.client();
    const { data, error } = await client.auth.signUp({ email: uniqueEmail(), password: 'password1' });
    if (error) throw error;
    return { client, user: data.user!, token: data.session!.access_token };
  }

  const post = (fn: string, body: string, headers: Record<string, string> = {}) =>
    stack.fetch(`${URL_BASE}/rest/v1/rpc/${fn}`, {
      method: 'POST',
      headers: { apikey: anonKey, 'Content-Type': 'application/json', ...headers },
      body,
    });

  describe('rest: RPC as the caller', () => {
    it('runs as anon with the anon key and as authenticated with a session', async () => {
      const anon = await stack.client().rpc('lbtest_whoami');
      expect(anon.data).toEqual({ role: 'anon', uid: null, user: 'anon' });
      const { client, user } = await signedIn();
      const authed = await client.rpc('lbtest_whoami');
      expect(authed.data).toEqual({ role: 'authenticated', uid: user.id, user: 'authenticated' });
      const service = await stack.client(serviceKey).rpc('lbtest_whoami');
      expect(service.data).toMatchObject({ role: 'service_role', user: 'service_role' });
    });

    it('applies row-level security', async () => {
      const alice = await signedIn();
      const bob = await signedIn();
      const added = await alice.client.rpc('lbtest_add_note', { p_body: 'hello' });
      expect(added.error).toBeNull();
      expect(added.data).toMatchObject({ owner: alice.user.id, body: 'hello' });
      expect((await alice.client.rpc('lbtest_my_notes')).data).toEqual([added.data]);
      expect((await bob.client.rpc('lbtest_my_notes')).data).toEqual([]);

      const anon = await stack.client().rpc('lbtest_add_note', { p_body: 'sneaky' });
      expect(anon.status).toBe(401);
      expect(anon.error).toMatchObject({ code: '42501' });
      const service = await stack.client(serviceKey).rpc('lbtest_add_note', { p_body: 'system' });
      expect(service.status).toBe(400); // bypasses RLS, but owner is null: 23502
      expect(service.error?.code).toBe('23502');
    });

    it('uses the schema migrations provide: profile RPCs', async () => {
      const { client, user } = await signedIn();
      const profile = await client.rpc('get_my_profile');
      expect(profile.error).toBeNull();
      expect(profile.data).toMatchObject({ id: user.id, email: user.email });
      const anon = await stack.client().rpc('get_my_profile');
      expect(anon.status).toBe(403);
      expect(anon.error).toMatchObject({ code: '28000', message: 'Not authenticated' });
      const free = await stack.client().rpc('username_available', { p_username: 'nobody-has-this' });
      expect(free.data).toBe(true);
    });

    it('returns PostgREST shapes: scalars, defaults, sets, tables, void, arrays and json arguments', async () => {
      const anon = stack.client();
      expect((await anon.rpc('lbtest_add', { a: 2 })).data).toBe(3);
      expect((await anon.rpc('lbtest_add', { a: 2, b: 5 })).data).toBe(7);
      expect((await anon.rpc('lbtest_series', { n: 3 })).data).toEqual([1, 2, 3]);
      expect((await anon.rpc('lbtest_pairs')).data).toEqual([
        { k: 'a', v: 1 },
        { k: 'b', v: 2 },
      ]);
      const noop = await anon.rpc('lbtest_noop');
      expect(noop).toMatchObject({ status: 204, data: null, error: null });
      const echo = await anon.rpc('lbtest_echo', {
        p_tags: ['x', 'y'],
        p_doc: { a: [1] },
        p_at: '2026-03-01T00:00:00Z',
      });
      expect(echo.data).toEqual({ tags: ['x', 'y'], doc: { a: [1] }, year: 2026 });
      const viaGet = await anon.rpc('lbtest_add', { a: 40, b: 2 }, { get: true });
      expect(viaGet.data).toBe(42);
      const single = await anon.rpc('lbtest_pairs').limit(1).single();
      expect(single.error?.code).toBe('PGRST116');
    });
  });

  describe('rest: response GUCs', () => {
    it("applies a function's response.status and response.headers, as PostgREST does", async () => {
      const forbidden = await stack.client().rpc('lbtest_status', { p_status: '403' });
      expect(forbidden.status).toBe(403);
      expect(forbidden.error).toMatchObject({ message: 'Wrong password.', hint: 'forbidden' });
      const withHeader = await post(
        'lbtest_status',
        JSON.stringify({ p_status: '202', p_headers: '[{"X-Note": "kept"}]' }),
      );
      expect(withHeader.status).toBe(202);
      expect(withHeader.headers.get('x-note')).toBe('kept');
      const invalid = await post('lbtest_status', JSON.stringify({ p_status: 'teapot' }));
      expect(invalid.status).toBe(500);
      expect(await invalid.json()).toMatchObject({ code: 'PGRST112' });
      const badHeaders = await post('lbtest_status', JSON.stringify({ p_status: '200', p_headers: '{"a": 1}' }));
      expect(await badHeaders.json()).toMatchObject({ code: 'PGRST111' });
    });

    it('commits a call that set them once (only when they are valid), and keeps the body', async () => {
      const calls = async (status: string) =>
        (await stack.db.query('select n from public.lbtest_calls where status = $1', [status])).rows.length;
      // The first call of the function finds it sets GUCs; the next ones read them before the commit.
      for (const round of [1, 2]) {
        const created = await post('lbtest_status_logged', JSON.stringify({ p_status: '201' }));
        expect(created.status).toBe(201);
        expect(await created.json()).toEqual({ status: '201' });
        expect(await calls('201')).toBe(round);
      }
      const invalid = await post('lbtest_status_logged', JSON.stringify({ p_status: '999' }));
      expect(await invalid.json()).toMatchObject({ code: 'PGRST112' });
      expect(await calls('999')).toBe(0);
      // An empty status is no status: committed, answered 200.
      const plain = await post('lbtest_status_logged', JSON.stringify({ p_status: '' }));
      expect(plain.status).toBe(200);
      expect(await calls('')).toBe(1);
    });
  });

  describe('rest: errors in PostgREST shape', () => {
    it('answers an unknown function or argument set with 404 PGRST202', async () => {
      const missing = await stack.client().rpc('lbtest_nothing_here', { x: 1 });
      expect(missing.status).toBe(404);
      expect(missing.error).toMatchObject({
        code: 'PGRST202',
        message: expect.stringContaining('public.lbtest_nothing_here(x)'),
      });
      const wrongArgs = await stack.client().rpc('lbtest_add', { z: 1 });
      expect(wrongArgs.status).toBe(404);
      const internal = await stack.client().rpc('pg_sleep' as never);
      expect(internal.status).toBe(404);
    });

    it('answers invalid JSON with 400 PGRST102 and a raised exception with 400 and its message', async () => {
      const bad = await post('lbtest_add', '{"a": ');
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'PGRST102' });
      expect((await post('lbtest_add', '[1]')).status).toBe(400);
      const raised = await stack.client().rpc('lbtest_fail', { p_message: 'Nope, not today' });
      expect(raised.status).toBe(400);
      expect(raised.error).toEqual({
        code: 'P0001',
        message: 'Nope, not today',
        hint: 'a hint',
        details: 'some detail',
      });
      const badValue = await stack.client().rpc('lbtest_add', { a: 'twelve' });
      expect(badValue.status).toBe(400);
      expect(badValue.error?.code).toBe('22P02');
      const check = await (await signedIn()).client.rpc('lbtest_add_note', { p_body: '' });
      expect(check.status).toBe(400);
      expect(check.error?.code).toBe('23514');
    });

    it('refuses writes through GET, bad or expired JWTs, and a missing apikey', async () => {
      const write = await stack.fetch(`${URL_BASE}/rest/v1/rpc/lbtest_add_note?p_body=x`, {
        headers: { apikey: anonKey },
      });
      expect(write.status).toBe(405);
      const forged = await post('lbtest_whoami', '{}', { Authorization: 'Bearer not.a.jwt' });
      expect(forged.status).toBe(401);
      expect(await forged.json()).toMatchObject({ code: 'PGRST301' });
      const expiredToken = await new SignJWT({ role: 'authenticated', sub: crypto.randomUUID() })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
        .sign(new TextEncoder().encode(jwtSecret));
      const expired = await post('lbtest_whoami', '{}', { Authorization: `Bearer ${expiredToken}` });
      expect(expired.status).toBe(401);
      expect(await expired.json()).toMatchObject({ message: 'JWT expired' });
      const noKey = await stack.fetch(`${URL_BASE}/rest/v1/rpc/lbtest_whoami`, { method: 'POST', body: '{}' });
      expect(noKey.status).toBe(401);
      const table = await stack.client().from('lbtest_notes').select();
      expect(table.status).toBe(404);
    });

    it('refuses a schema it does not serve, private above all, as PostgREST does (406 PGRST106)', async () => {
      const read = await stack.fetch(`${URL_BASE}/rest/v1/rpc/lbtest_whoami`, {
        headers: { apikey: anonKey, 'Accept-Profile': 'private' },
      });
      expect(read.status).toBe(406);
      expect(await read.json()).toEqual({
        code: 'PGRST106',
        details: null,
        hint: 'Only the following schemas are exposed: public',
        message: 'Invalid schema: private',
      });
      const write = await post('lbtest_add', '{"a": 1}', { 'Content-Profile': 'private' });
      expect(write.status).toBe(406);
      expect(await write.json()).toMatchObject({ code: 'PGRST106', message: 'Invalid schema: private' });
      const named = await post('lbtest_add', '{"a": 1}', { 'Content-Profile': 'public' });
      expect([named.status, await named.json()]).toEqual([200, 2]);
      const supabaseJs = await stack.client().schema('private').rpc('setting', { name: 'site_url' });
      expect(supabaseJs.error).toMatchObject({ code: 'PGRST106' });
    });
  });
});
