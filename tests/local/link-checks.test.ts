/**
 * The broken-link check through the local stack (docs/architecture.md, Broken links): check-links
 * claims the links of Pro and Team owners due for their weekly check, checks each against a fixture
 * site on loopback (reached through the test-only PREVIEW_FETCH_ALLOW) at most 2 at a time per
 * host, marks pages that are gone and clears pages that came back, writing only what changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, insertRow } from '../support/db.ts';
import { startFixture, type Fixture } from '../functions/preview-fixture.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';
import { serviceKey, startTestStack, URL_BASE, type TestStack } from './stack.ts';

describe.each(dbKinds)('broken-link checks through the stack (%s)', (kind) => {
  let stack: TestStack;
  let site: Fixture;
  let pro: StackUser;
  let free: StackUser;
  let proDir: string;
  let freeDir: string;
  let active = 0;
  let mostAtOnce = 0;
  const back = new Set<string>();
  const savedAllow = process.env.PREVIEW_FETCH_ALLOW;

  const url = (path: string) => `http://127.0.0.1:${site.port}${path}`;
  const run = async () => {
    const response = await stack.fetch(`${URL_BASE}/functions/v1/check-links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${serviceKey}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { checked: number; broken: number; changed: number };
  };
  const link = async (dir: string, owner: StackUser, target: string) =>
    (
      await insertRow<{ id: string }>(stack.db, 'saved_links', {
        directory_id: dir,
        owner_id: owner.id,
        created_by: owner.id,
        url: target,
        title: target,
      })
    ).id;
  const state = async (id: string) =>
    (
      await stack.db.query<{ broken: boolean; txid: string }>(
        'select broken_at is not null as broken, txid::text from public.saved_links where id = $1',
        [id],
      )
    ).rows[0]!;

  beforeAll(async () => {
    // Every answer waits for the next tick of the event loop, so requests overlap as on a real site.
    const answer =
      (status: number, headStatus = status) =>
      (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
        active += 1;
        mostAtOnce = Math.max(mostAtOnce, active);
        setImmediate(() => {
          active -= 1;
          const path = new URL(req.url ?? '/', 'http://x').pathname;
          const code = back.has(path) ? 200 : req.method === 'HEAD' ? headStatus : status;
          res.writeHead(code, { 'Content-Type': 'text/html' }).end(req.method === 'HEAD' ? undefined : 'page');
        });
      };
    site = await startFixture({
      '/ok': answer(200),
      '/gone': answer(404),
      '/removed': answer(410),
      '/no-head': answer(200, 405),
      '/no-head-gone': answer(404, 405),
      '/error': answer(503),
      ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/many/${i}`, answer(200)])),
    });
    process.env.PREVIEW_FETCH_ALLOW = `127.0.0.1:${site.port}`;
    stack = await startTestStack({ kind });
    pro = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'checks-pro', tier: 'pro' });
    free = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'checks-free' });
    proDir = (await insertRow<{ id: string }>(stack.db, 'link_directories', { name: 'Pro', owner_id: pro.id })).id;
    freeDir = (await insertRow<{ id: string }>(stack.db, 'link_directories', { name: 'Free', owner_id: free.id })).id;
  });
  afterAll(async () => {
    if (savedAllow === undefined) delete process.env.PREVIEW_FETCH_ALLOW;
    else process.env.PREVIEW_FETCH_ALLOW = savedAllow;
    await stack?.close();
    await site?.close();
  });

  it('marks gone pages of Pro users once a week, clears a page that came back, and writes only changes', async () => {
    const ids = {
      ok: await link(proDir, pro, url('/ok')),
      gone: await link(proDir, pro, url('/gone')),
      removed: await link(proDir, pro, url('/removed')),
      noHead: await link(proDir, pro, url('/no-head')),
      noHeadGone: await link(proDir, pro, url('/no-head-gone')),
      error: await link(proDir, pro, url('/error')),
      unresolvable: await link(proDir, pro, 'https://no-such-host.invalid/page'),
      private: await link(proDir, pro, 'http://10.0.0.1/admin'),
      many: await Promise.all(Array.from({ length: 12 }, (_, i) => link(proDir, pro, url(`/many/${i}`)))),
      free: await link(freeDir, free, url('/gone')),
    };
    const okBefore = await state(ids.ok);

    const first = await run();
    expect(first.checked).toBe(20);
    expect(first.broken).toBe(4);
    expect(first.changed).toBe(4);
    for (const id of [ids.gone, ids.removed, ids.noHeadGone, ids.unresolvable])
      expect((await state(id)).broken).toBe(true);
    for (const id of [ids.ok, ids.noHead, ids.error, ids.private, ...ids.many])
      expect((await state(id)).broken).toBe(false);
    // A Free user's link is not checked; an answer that did not change is not written.
    expect((await state(ids.free)).broken).toBe(false);
    expect(await state(ids.ok)).toEqual(okBefore);
    expect(mostAtOnce).toBeGreaterThan(0);
    expect(mostAtOnce).toBeLessThanOrEqual(2);
    // Nothing was asked of the site for the private address (it is not the fixture's anyway) or twice for HEAD-only pages.
    expect(site.requests.filter((r) => r.path === '/ok')).toHaveLength(1);
    expect(site.requests.filter((r) => r.path === '/no-head')).toHaveLength(2);

    // Within the week nothing is checked again.
    expect((await run()).checked).toBe(0);

    // A week later the page is back: its mark goes.
    back.add('/gone');
    await stack.db.query("update private.link_checks set checked_at = now() - interval '8 days'");
    const later = await run();
    expect(later.checked).toBe(20);
    expect((await state(ids.gone)).broken).toBe(false);
    expect((await state(ids.removed)).broken).toBe(true);
  });

  it('checks one owner’s links when asked, and refuses a body that names no user id', async () => {
    const other = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'checks-team', tier: 'team' });
    const dir = (await insertRow<{ id: string }>(stack.db, 'link_directories', { name: 'T', owner_id: other.id })).id;
    const mine = await link(dir, other, url('/removed'));
    const theirs = await link(proDir, pro, url('/removed'));
    const call = (body: string) =>
      stack.fetch(`${URL_BASE}/functions/v1/check-links`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${serviceKey}`, 'Content-Type': 'application/json' },
        body,
      });
    const answer = await call(JSON.stringify({ owner: other.id }));
    expect(await answer.json()).toEqual({ checked: 1, broken: 1, changed: 1 });
    expect((await state(mine)).broken).toBe(true);
    expect((await state(theirs)).broken).toBe(false);
    const bad = await call(JSON.stringify({ owner: 'everyone' }));
    expect(bad.status).toBe(400);
  });

  it('keeps its functions from clients and refuses a caller without the service key', async () => {
    const { error } = await pro.client.rpc('claim_link_checks', { p_limit: 10 });
    expect(error).not.toBeNull();
    const finish = await pro.client.rpc('finish_link_checks', { p_results: [] });
    expect(finish.error).not.toBeNull();
    const anonymous = await stack.fetch(`${URL_BASE}/api/check-links`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    const user = await stack.fetch(`${URL_BASE}/api/check-links`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${pro.token}` },
    });
    expect(user.status).toBe(401);
  });
});
