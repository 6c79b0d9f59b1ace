import { expect, test } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';
import { signUpAndSync, syncStatus } from './support/workspace.ts';

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

test('Dark chosen on Profile and the tab closed at once: the next start is dark, and the choice reaches the server', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'light' });
  const page = await context.newPage();
  const user = newUser('theme_close');
  await signUpAndSync(page, user);
  await page.goto(`/Profile/${user.username}`);
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  // A slow phone: the profile's write has not committed when the tab goes.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
  await page.getByRole('radio', { name: 'Dark' }).click();
  await page.close();

  const next = await context.newPage();
  await next.goto(`/Profile/${user.username}`);
  await expect(next.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(syncStatus(next)).toHaveText('Synced');
  expect(await next.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  // Another device signed in later shows it: the server holds it.
  const other = await browser.newContext({ colorScheme: 'light' });
  const phone = await other.newPage();
  const login = new LoginPage(phone);
  await login.open();
  await login.signIn(user);
  await expect(phone.locator('html')).toHaveAttribute('data-theme', 'dark');
  await other.close();
  await context.close();
});
