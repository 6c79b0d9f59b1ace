import { expect, test } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';

test('a visitor reads the landing page, signs up, stays signed in, is kept to their own pages and signs out', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByText(/organise, plan, decide/i).first()).toBeVisible();
  await expect(page.getByText('15,000+')).toBeVisible();

  await page
    .getByRole('link', { name: /sign in/i })
    .first()
    .click();
  const login = new LoginPage(page);
  const user = newUser('ada');
  await login.signUp(user);

  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(page.getByRole('heading', { name: 'Welcome back, there!' })).toBeVisible();
  await expect(page.getByText('Free Plan')).toBeVisible();
  await expect(page.getByText(`@${user.username}`)).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome back, there!' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));

  await page.goto('/dashboard');
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));

  await page.goto('/Dashboard/someone_else');
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/Login');
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(/organise, plan, decide/i).first()).toBeVisible();
  await page.waitForLoadState('load');
  expect(await page.evaluate(() => localStorage.getItem('lb_username'))).toBeNull();
  await page.goto(`/Dashboard/${user.username}`);
  await expect(page).toHaveURL(/\/$/);
});

test('a taken username is refused before the account is made', async ({ page, browser }) => {
  const first = newUser('taken');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(first);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${first.username}$`));

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const otherLogin = new LoginPage(otherPage);
  await otherLogin.open();
  await otherLogin.signUp({ ...newUser('second'), username: first.username.toUpperCase() });
  await expect(otherPage.getByRole('alert')).toHaveText('Username is unavailable.');
  await expect(otherPage).toHaveURL(/\/Login$/);
  await other.close();
});

test('a short username is refused with the product message', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signUp({ ...newUser('short'), username: 'ab' });
  await expect(page.getByRole('alert')).toHaveText('Please choose a username (min 3 chars).');
});

test('a wrong password shows the provider message', async ({ page }) => {
  const login = new LoginPage(page);
  await login.open();
  await login.signIn({ email: 'nobody@example.com', password: 'wrong-password' });
  await expect(page.getByRole('alert')).toHaveText('Invalid login credentials');
});
