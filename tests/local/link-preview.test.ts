/**
 * The link-preview and link-image functions through the local stack (docs/architecture.md, Link
 * previews): a saved link's page read once from a fixture server on loopback (reached through the
 * test-only PREVIEW_FETCH_ALLOW), only what the user left empty filled in, its pictures served
 * through the backend's origin.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, insertRow } from '../support/db.ts';
import { html, PNG, startFixture, type Fixture } from '../functions/preview-fixture.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';
import { startTestStack, URL_BASE, type TestStack } from './stack.ts';

const PAGE = `<!doctype html><html><head>
<title>Plain title</title>
<meta property="og:title" content="The article">
<meta property="og:description" content="What it says">
<meta property="og:site_name" content="Fixture News">
<meta property="og:image" content="/cover.png">
<link rel="icon" sizes="64x64" href="/icon.png">
</head><body>text</body></html>`;

describe.each(dbKinds)('link previews through the stack (%s)', (kind) => {
  let stack: TestStack;
  let site: Fixture;
  let owner: StackUser;
  let stranger: StackUser;
  let dir: string;
  let slowRelease: () => void = () => {};
  const savedAllow = process.env.PREVIEW_FETCH_ALLOW;

  const hits = (path: string) => site.requests.filter((r) => new URL(r.path, 'http://x').pathname === path).length;
  const pageUrl = (path: string) => `http://127.0.0.1:${site.port}${path}`;
  const ask = (user: StackUser | null, body: unknown) =>
    stack.fetch(`${URL_BASE}/api/link-preview`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(user ? { Authorization: `Bearer ${user.token}` } : {}) },
      body: JSON.stringify(body),
    });
  const saveLink = async (path: string, fields: Record<string, unknown> = {}) =>
    (
      await insertRow<{ id: string }>(stack.db, 'saved_links', {
        directory_id: dir,
        owner_id: owner.id,
        created_by: owner.id,
        url: pageUrl(path),
        title: pageUrl(path),
        ...fields,
      })
    ).id;
  const row = async (id: string) =>
    (
      await stack.db.query<Record<string, unknown>>(
        'select title, description, site_name, icon_url, image_url, preview_state, previewed_at from public.saved_links where id = $1',
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    site = await startFixture({
      '/article': html(PAGE),
      '/slow': (_req, res) => {
        slowRelease = () => res.writeHead(200, { 'Content-Type': 'text/html' }).end(PAGE);
      },
      '/icon.png': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
      '/cover.png': (_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG),
      '/gone': (_req, res) => res.writeHead(500, { 'Content-Type': 'text/html' }).end('oops'),
    });
    process.env.PREVIEW_FETCH_ALLOW = `127.0.0.1:${site.port}`;
    stack = await startTestStack({ kind });
    owner = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'preview-owner', tier: 'pro' });
    stranger = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'preview-stranger' });
    dir = (await insertRow<{ id: string }>(stack.db, 'link_directories', { name: 'Reading', owner_id: owner.id })).id;
  });
  afterAll(async () => {
    if (savedAllow === undefined) delete process.env.PREVIEW_FETCH_ALLOW;
    else process.env.PREVIEW_FETCH_ALLOW = savedAllow;
    await stack?.close();
    await site?.close();
  });

  it('fills in a title that is only the URL and an empty description, keeps what the user wrote, and serves the pictures', async () => {
    const empty = await saveLink('/article');
    const titled = await saveLink('/article', { title: 'My own title' });
    const answer = await ask(owner, { link_id: empty });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ state: 'done' });
    expect(await row(empty)).toMatchObject({
      title: 'The article',
      description: 'What it says',
      site_name: 'Fixture News',
      icon_url: pageUrl('/icon.png'),
      image_url: pageUrl('/cover.png'),
      preview_state: 'done',
    });
    expect((await ask(owner, { link_id: titled })).status).toBe(200);
    expect(await row(titled)).toMatchObject({ title: 'My own title', description: 'What it says' });

    const icon = await stack.fetch(`${URL_BASE}/functions/v1/link-image?link=${empty}&kind=icon`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('cache-control')).toContain('max-age');
    expect(icon.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await icon.arrayBuffer()).equals(PNG)).toBe(true);
    const unknown = await stack.fetch(`${URL_BASE}/functions/v1/link-image?link=${randomUUID()}&kind=image`);
    expect(unknown.status).toBe(404);
    const bad = await stack.fetch(`${URL_BASE}/functions/v1/link-image?link=${empty}&kind=../../etc`);
    expect(bad.status).toBe(400);
  });

  it('reads a page once however often it is asked, and two asks at once fetch it once', async () => {
    const id = await saveLink('/slow');
    const before = hits('/slow');
    const first = ask(owner, { link_id: id });
    await expect.poll(() => hits('/slow')).toBe(before + 1);
    const second = await ask(owner, { link_id: id });
    expect(second.status).toBe(202);
    expect(await second.json()).toEqual({ state: 'pending' });
    slowRelease();
    expect(await (await first).json()).toEqual({ state: 'done' });
    const again = await ask(owner, { link_id: id });
    expect(await again.json()).toEqual({ state: 'done' });
    expect(hits('/slow')).toBe(before + 1);
  });

  it('says a page failed, asks again only on retry, and drops a preview whose link changed meanwhile', async () => {
    const id = await saveLink('/gone');
    expect(await (await ask(owner, { link_id: id })).json()).toEqual({ state: 'failed' });
    expect(await row(id)).toMatchObject({ preview_state: 'failed', title: pageUrl('/gone'), icon_url: null });
    const before = hits('/gone');
    expect(await (await ask(owner, { link_id: id })).json()).toEqual({ state: 'failed' });
    expect(hits('/gone')).toBe(before);
    expect(await (await ask(owner, { link_id: id, retry: true })).json()).toEqual({ state: 'failed' });
    expect(hits('/gone')).toBe(before + 1);

    // The URL changes while the old page is read: nothing of the old page lands.
    const moving = await saveLink('/slow');
    const asked = ask(owner, { link_id: moving });
    await expect.poll(() => hits('/slow')).toBeGreaterThan(1);
    await stack.db.query('update public.saved_links set url = $2 where id = $1', [moving, pageUrl('/elsewhere')]);
    slowRelease();
    expect(await (await asked).json()).toEqual({ state: 'pending' });
    expect(await row(moving)).toMatchObject({ title: pageUrl('/slow'), preview_state: null, site_name: null });
  });

  it('refuses bad input, no session, and a link the caller may not edit', async () => {
    const id = await saveLink('/article');
    expect((await ask(owner, { link_id: 'nope' })).status).toBe(400);
    expect((await ask(owner, { link_id: `${randomUUID()}\u0000` })).status).toBe(400);
    expect((await ask(owner, { link_id: id, retry: 'yes' })).status).toBe(400);
    expect((await ask(null, { link_id: id })).status).toBe(401);
    const foreign = await ask(stranger, { link_id: id });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: 'Link not found.' });
    expect((await ask(owner, { link_id: randomUUID() })).status).toBe(404);
    expect(await row(id)).toMatchObject({ preview_state: null });
    // Neither database function is the client's to call.
    const { error } = await owner.client.rpc('link_preview_finish', {
      p_link: id,
      p_url: pageUrl('/article'),
      p_preview: { ok: true, title: 'Forged' },
    });
    expect(error).not.toBeNull();
    expect(await row(id)).toMatchObject({ title: pageUrl('/article') });
  });

  it('answers 429 with Retry-After past 100 previews an hour, counting nothing more', async () => {
    const user = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'preview-busy', tier: 'pro' });
    const own = (await insertRow<{ id: string }>(stack.db, 'link_directories', { name: 'Busy', owner_id: user.id })).id;
    await stack.db.query(
      `insert into private.throttle_attempts (bucket, subject, attempted_at)
       select 'link_preview_user', $1, now() from generate_series(1, 100)`,
      [user.id],
    );
    const link = await insertRow<{ id: string }>(stack.db, 'saved_links', {
      directory_id: own,
      owner_id: user.id,
      created_by: user.id,
      url: pageUrl('/article'),
      title: pageUrl('/article'),
    });
    const answer = await ask(user, { link_id: link.id });
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await row(link.id)).toMatchObject({ preview_state: null });
  });
});
