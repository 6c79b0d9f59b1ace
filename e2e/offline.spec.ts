import { expect, test } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';

test('after one online visit the app shell opens offline', async ({ page, context }) => {
  await page.goto('/');
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.state;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText(/organise, plan, decide/i).first()).toBeVisible();
  await page.goto('/Features');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.setOffline(false);
});

test('the manifest makes the app installable', async ({ request }) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.ok()).toBe(true);
  const manifest = await response.json();
  expect(manifest).toMatchObject({ name: 'Linkboard', short_name: 'Linkboard', display: 'standalone' });
  expect(manifest.icons.some((icon: { purpose?: string }) => icon.purpose === 'maskable')).toBe(true);
});

test('a signed-up user can sign in again from a new browser', async ({ page, browser }) => {
  const user = newUser('again');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  const otherLogin = new LoginPage(other);
  await otherLogin.open();
  await otherLogin.signIn(user);
  await expect(other).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await fresh.close();
});
