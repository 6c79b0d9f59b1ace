import { expect, test, type Page } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';

const status = (page: Page) => page.getByRole('status', { name: 'Sync status' });

test('a page shared into the app offline is saved to a directory and reaches the server once online', async ({
  page,
  context,
  browser,
}) => {
  const user = newUser('sharer');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));

  await page.goto(`/Links/${user.username}`);
  await page.getByRole('button', { name: /Create New Directory/ }).click();
  const create = page.getByRole('dialog', { name: 'Create Directory' });
  await create.getByLabel('Name').fill('Reading');
  await create.getByRole('button', { name: 'Create Directory' }).click();
  await expect(page.getByRole('button', { name: 'Open Reading' })).toBeVisible();
  await expect(status(page)).toHaveText('Synced');

  // The service worker controls the page, so the share target opens without the network.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(status(page)).toHaveText('Synced');

  await context.setOffline(true);
  const shared = new URLSearchParams({
    title: 'Offline reading',
    text: 'Shared from another app https://example.org/ignored',
    url: 'https://example.org/shared-offline',
  });
  await page.goto(`/share-target?${shared}`);
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await expect(dialog.getByLabel('URL')).toHaveValue('https://example.org/shared-offline');
  await expect(dialog.getByLabel('Title')).toHaveValue('Offline reading');
  await expect(dialog.getByLabel('Directory')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(dialog.getByLabel('Directory').locator('option')).toHaveText(['Reading']);
  await dialog.getByRole('button', { name: 'Add Link' }).click();

  await expect(page).toHaveURL(new RegExp(`/Links/${user.username}/dir/[0-9a-f-]+$`));
  const directoryUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Reading' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Offline reading' })).toHaveAttribute(
    'href',
    'https://example.org/shared-offline',
  );
  await expect(status(page)).toHaveText('Offline — 1 change waiting');

  await context.setOffline(false);
  await expect(status(page)).toHaveText('Synced', { timeout: 20_000 });

  // The server has it: a second browser signed in as the same user sees the link.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const otherLogin = new LoginPage(otherPage);
  await otherLogin.open();
  await otherLogin.signIn(user);
  await expect(otherPage).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await otherPage.goto(directoryUrl);
  await expect(otherPage.getByRole('link', { name: 'Offline reading' })).toBeVisible({ timeout: 20_000 });
  await other.close();
});

test('a visitor who shares a page signs up and comes back to it, then saves it in a first directory', async ({
  page,
}) => {
  const shared = new URLSearchParams({ title: 'Worth keeping', url: 'https://example.org/x?y=1&z=2' });
  await page.goto(`/share-target?${shared}`);
  await expect(page).toHaveURL(/\/Login\?next=/);
  await expect(page.getByRole('heading', { name: /welcome back|create your account/i })).toBeVisible();

  const user = newUser('visitor');
  await new LoginPage(page).signUp(user);
  // Back on the shared page, with its whole address intact.
  await expect(page).toHaveURL(/\/share-target\?/);
  expect(new URL(page.url()).searchParams.get('url')).toBe('https://example.org/x?y=1&z=2');
  await expect(page.getByText('Create a directory first')).toBeVisible();
  await expect(page.getByText('Create one to save Worth keeping in.')).toBeVisible();

  await page.getByRole('button', { name: 'Create Directory' }).click();
  const create = page.getByRole('dialog', { name: 'Create Directory' });
  await create.getByLabel('Name').fill('Inbox');
  await create.getByRole('button', { name: 'Create Directory' }).click();

  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await expect(dialog.getByLabel('URL')).toHaveValue('https://example.org/x?y=1&z=2');
  await expect(dialog.getByLabel('Title')).toHaveValue('Worth keeping');
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(page).toHaveURL(new RegExp(`/Links/${user.username}/dir/[0-9a-f-]+$`));
  await expect(page.getByRole('link', { name: 'Worth keeping' })).toHaveAttribute(
    'href',
    'https://example.org/x?y=1&z=2',
  );
  await expect(status(page)).toHaveText('Synced', { timeout: 20_000 });
});

test('the manifest registers /share-target as a GET share target with title, text and url', async ({ request }) => {
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest.share_target).toEqual({
    action: '/share-target',
    method: 'GET',
    params: { title: 'title', text: 'text', url: 'url' },
  });
});
