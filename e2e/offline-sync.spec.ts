import { expect, test, type Page } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';
import { controlledByServiceWorker } from './support/workspace.ts';

const status = (page: Page) => page.getByRole('status', { name: 'Sync status' });

test('offline: boots signed in, queues a profile change, and the change reaches the server once online', async ({
  page,
  context,
  browser,
}) => {
  const user = newUser('offline');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(status(page)).toHaveText('Synced');

  // The service worker controls the page (precache of the app shell).
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(status(page)).toHaveText('Synced');

  await context.setOffline(true);
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(page.getByText(`@${user.username}`)).toBeVisible();
  await expect(status(page)).toHaveText(/^Offline/);

  await page.getByRole('link', { name: /Your Profile/ }).click();
  await expect(page).toHaveURL(new RegExp(`/Profile/${user.username}$`));
  await expect(page.getByLabel('Username')).toHaveValue(user.username);
  const bio = `Written offline ${Date.now()}`;
  await page.getByLabel('Bio').fill(bio);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(status(page)).toHaveText('Offline — 1 change waiting');
  await page.close();

  await context.setOffline(false);
  const again = await context.newPage();
  await again.goto(`/Profile/${user.username}`);
  await expect(status(again)).toHaveText('Synced', { timeout: 20_000 });

  // The server has it: a second browser signed in as the same user sees the bio.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const otherLogin = new LoginPage(otherPage);
  await otherLogin.open();
  await otherLogin.signIn(user);
  await expect(otherPage).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await otherPage.goto(`/Profile/${user.username}`);
  await expect(otherPage.getByLabel('Bio')).toHaveValue(bio, { timeout: 20_000 });
  await other.close();

  await expect(status(again)).toHaveText('Synced');
});

test('sign-out with unsynced changes asks first, then deletes the local data', async ({ page, context }) => {
  const user = newUser('leaver');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(status(page)).toHaveText('Synced');
  const localDbName = () =>
    page.evaluate(async () => {
      const dbs = await indexedDB.databases();
      return dbs.map((db) => db.name ?? '').find((name) => name.startsWith('linkboard-') && name !== 'linkboard-auth');
    });
  // The user's database is created by the first sync, which may finish after the status first reads 'Synced'.
  await expect.poll(localDbName).toBeTruthy();
  const userId = await localDbName();

  await page.getByRole('link', { name: /Your Profile/ }).click();
  // After the first online visit the service worker serves the app (the page it lands on after sign-out).
  await controlledByServiceWorker(page);
  await context.setOffline(true);
  await page.getByLabel('Bio').fill('never synced');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(status(page)).toHaveText('Offline — 1 change waiting');

  await page.getByRole('button', { name: 'Logout' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('You have 1 change that has not been synced. Sign out and discard it?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/Profile/${user.username}$`));

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out and discard' }).click();
  await expect(page).toHaveURL(/\/$/);
  const names = await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
  expect(names).not.toContain(userId);
  await context.setOffline(false);
  await page.goto(`/Dashboard/${user.username}`);
  await expect(page).toHaveURL(/\/$/);
});
