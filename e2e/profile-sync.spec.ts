import { expect, test } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';

test('a rename follows in the URL and the sidebar; a taken username is refused before anything changes', async ({
  page,
  browser,
}) => {
  const first = newUser('owner');
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const otherLogin = new LoginPage(otherPage);
  await otherLogin.open();
  await otherLogin.signUp(first);
  await expect(otherPage).toHaveURL(new RegExp(`/Dashboard/${first.username}$`));
  await other.close();

  const user = newUser('renamer');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await page.getByRole('link', { name: /Your Profile/ }).click();
  const status = page.getByRole('status', { name: 'Sync status' });
  await expect(status).toHaveText('Synced');

  const renamed = `${user.username}_x`;
  const username = page.getByLabel('Username');
  await username.fill(renamed);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/Profile/${renamed}$`));
  await expect(page.getByText(`@${renamed}`)).toBeVisible();
  await expect(status).toHaveText('Synced');
  expect(await page.evaluate(() => localStorage.getItem('lb_username'))).toBe(renamed);

  // Someone else's username: the server says it is taken before anything is queued. The field
  // keeps what was typed, marked invalid, so it can be corrected; nothing else moves.
  await username.fill(first.username);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Failed to save profile. Your username might be taken.')).toBeVisible();
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(username).toHaveValue(first.username);
  await expect(page).toHaveURL(new RegExp(`/Profile/${renamed}$`));
  await expect(page.getByText(`@${renamed}`)).toBeVisible();
  await expect(status).toHaveText('Synced');
  expect(await page.evaluate(() => localStorage.getItem('lb_username'))).toBe(renamed);
});
