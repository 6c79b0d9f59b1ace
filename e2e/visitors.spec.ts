import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { e2eKeys } from './support/keys.ts';

const ANON_KEY = e2eKeys.anonKey;
import { newUser } from './pages/login-page.ts';
import { setTier } from './support/admin.ts';
import { addLink, createDirectory, signUpAndSync, syncStatus } from './support/workspace.ts';

/** Signs an owner up and creates a directory with links through the API, as the app's sync would. */
async function ownerWithDirectory(request: APIRequestContext, isPublic: boolean, more = 0) {
  const user = newUser('owner');
  const signUp = await request.post('/auth/v1/signup', {
    headers: { apikey: ANON_KEY },
    data: { email: user.email, password: user.password, data: { username: user.username, full_name: 'Olive Owner' } },
  });
  expect(signUp.ok()).toBe(true);
  const { access_token: token } = (await signUp.json()) as { access_token: string };
  const dirId = randomUUID();
  const links = [
    { title: 'Example docs', url: 'http://example.com/docs' },
    { title: 'Second link', url: 'https://example.org/two' },
    { title: 'Third link', url: 'https://example.org/three' },
    { title: 'Fourth link', url: 'https://example.org/four' },
    ...Array.from({ length: more }, (_, i) => ({ title: `More ${i + 1}`, url: `https://example.org/more/${i + 1}` })),
  ];
  const push = await request.post('/rest/v1/rpc/sync_push', {
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${token}` },
    data: {
      p_mutations: [
        {
          id: randomUUID(),
          name: 'directory.create',
          args: { id: dirId, name: 'Team Reading', description: 'What we read', is_public: isPublic },
        },
        ...links.map((link) => ({
          id: randomUUID(),
          name: 'link.create',
          args: { id: randomUUID(), directory_id: dirId, ...link },
        })),
      ],
    },
  });
  expect(push.ok()).toBe(true);
  const { results } = (await push.json()) as { results: { status: string }[] };
  expect(results).toEqual(results.map(() => expect.objectContaining({ status: 'applied' })));
  return { user, dirId };
}

test('a visitor opens a public directory by each of its addresses, and the owner’s public profile', async ({
  page,
  request,
}) => {
  const { user, dirId } = await ownerWithDirectory(request, true);

  await page.goto(`/Links/${user.username}/dir/${dirId}`);
  await expect(page.getByRole('heading', { name: 'Team Reading' })).toBeVisible();
  await expect(page.getByText('What we read')).toBeVisible();
  const docs = page.getByRole('link', { name: 'Example docs' });
  await expect(docs).toHaveAttribute('href', 'http://example.com/docs');
  await expect(docs).toHaveAttribute('target', '_blank');

  for (const path of [`/Links/dir/${dirId}`, `/share/dir/${dirId}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Team Reading' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Fourth link' })).toBeVisible();
  }

  const api = await request.get(`/api/public-directory?dirId=${dirId}`);
  expect(api.status()).toBe(200);
  expect(((await api.json()) as { links: unknown[] }).links).toHaveLength(4);

  await page.goto(`/PublicProfile/${user.username}`);
  await expect(page.getByRole('heading', { name: 'Olive Owner' })).toBeVisible();
  await expect(page.getByText(`@${user.username}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Public Collections' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Team Reading' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Example docs' })).toHaveAttribute('href', 'http://example.com/docs');
  await expect(page.getByText('+1 more links')).toBeVisible();

  await page.goto(`/PublicProfile?user=${user.username}`);
  await expect(page.getByRole('heading', { name: 'Olive Owner' })).toBeVisible();
});

test('a visitor is refused a private or missing directory, and sees missing profiles and empty collections', async ({
  page,
  request,
}) => {
  const { user, dirId } = await ownerWithDirectory(request, false);
  const denied = "It may be private or you don't have access. Ask the owner to make it public or invite you.";

  for (const path of [`/Links/dir/${dirId}`, `/Links/${user.username}/dir/${randomUUID()}`, '/share/dir/nope']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'This directory is not available' })).toBeVisible();
    await expect(page.getByText(denied)).toBeVisible();
  }
  expect((await request.get(`/api/public-directory?dirId=${dirId}`)).status()).toBe(404);

  await page.goto(`/PublicProfile/${user.username}`);
  await expect(page.getByText('No Public Collections')).toBeVisible();

  await page.goto('/PublicProfile/nobody_here_at_all');
  await expect(page.getByRole('heading', { name: 'Profile Not Found' })).toBeVisible();
  await expect(page.getByText("This user profile doesn't exist or isn't public.")).toBeVisible();
});

test('a Pro owner protects a public directory with a password; a visitor needs the right one', async ({
  page,
  browser,
  request,
}) => {
  const user = newUser('guard');
  await signUpAndSync(page, user);
  const dirId = await createDirectory(page, user.username, 'Secret stash');
  await addLink(page, 'https://hidden.example/one', 'Hidden one');
  await expect(syncStatus(page)).toHaveText('Synced');

  const grid = `/Links/${user.username}`;
  const card = page.getByRole('button', { name: 'Open Secret stash' });
  const editDialog = async () => {
    await page.getByRole('button', { name: 'Edit Secret stash' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Directory' });
    await dialog.getByRole('switch', { name: 'Public directory' }).check();
    return dialog;
  };

  // Free: a public directory, but no password.
  await page.goto(grid);
  let dialog = await editDialog();
  await expect(dialog.getByText('Password-protected directories are a Pro feature.')).toBeVisible();
  await expect(dialog.getByLabel('Password (optional)')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // The billing webhook makes the owner Pro; the app learns it from the next sync.
  await setTier(request, user, 'pro');
  await page.reload();
  await expect(syncStatus(page)).toHaveText('Synced');
  dialog = await editDialog();
  await dialog.getByLabel('Password (optional)').fill('open sesame');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText('Password Protected');
  await expect(syncStatus(page)).toHaveText('Synced');
  await page.reload();
  await expect(card).toContainText('Password Protected');

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/share/dir/${dirId}`);
  const form = visitorPage.getByRole('form', { name: 'Directory password' });
  await expect(form.getByRole('heading', { name: 'This directory is password protected.' })).toBeVisible();
  await expect(visitorPage.getByRole('link', { name: 'Hidden one' })).toHaveCount(0);

  await form.getByLabel('Password').fill('open sesame?');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(form.getByRole('alert')).toHaveText('Wrong password.');
  await expect(visitorPage.getByRole('link', { name: 'Hidden one' })).toHaveCount(0);

  await form.getByLabel('Password').fill('open sesame');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(visitorPage.getByRole('heading', { name: 'Secret stash' })).toBeVisible();
  await expect(visitorPage.getByRole('link', { name: 'Hidden one' })).toHaveAttribute(
    'href',
    'https://hidden.example/one',
  );
  await expect(form).toBeHidden();
  await visitor.close();
});

test('a shared page moves nothing in view when its content arrives (a phone, a slow answer)', async ({
  page,
  request,
}) => {
  // More links than a phone's screen holds: the page grows past the fold when they arrive.
  const { user, dirId } = await ownerWithDirectory(request, true, 16);
  // Lighthouse's phone, and an answer slow enough for the loading state to be painted first.
  await page.setViewportSize({ width: 412, height: 823 });
  await page.route('**/rest/v1/rpc/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { layoutShift: number };
    w.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) w.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  for (const [path, heading] of [
    [`/Links/${user.username}/dir/${dirId}`, 'Team Reading'],
    [`/PublicProfile/${user.username}`, 'Olive Owner'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('status').getByText('Loading...')).toBeVisible();
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    // Two frames for the observer to hear of the last paint.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift), path).toBeLessThan(
      0.01,
    );
  }
});
