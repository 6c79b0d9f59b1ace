import { expect, test } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';

test('the service worker drains the queue with no page open (Background Sync)', async ({ page, context, browser }) => {
  const user = newUser('bg');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const status = page.getByRole('status', { name: 'Sync status' });
  await expect(status).toHaveText('Synced');
  await page.getByRole('link', { name: /Your Profile/ }).click();
  await context.setOffline(true);
  const bio = `bg ${Date.now()}`;
  await page.getByLabel('Bio').fill(bio);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(status).toHaveText('Offline — 1 change waiting');
  const hasSync = await page.evaluate(async () => 'sync' in (await navigator.serviceWorker.ready));
  test.skip(!hasSync, 'this browser has no Background Sync');
  await page.close();
  await context.setOffline(false);

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await new LoginPage(otherPage).open();
  await new LoginPage(otherPage).signIn(user);
  await expect(otherPage).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await otherPage.goto(`/Profile/${user.username}`);
  // No page of the first browser is open: only its service worker can have pushed the change.
  await expect(otherPage.getByLabel('Bio')).toHaveValue(bio, { timeout: 20_000 });
  await other.close();
});
