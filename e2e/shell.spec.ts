import { expect, test } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';

test('the shell: sidebar groups, Ctrl+B, lower-case routes, and the mobile header under 768 px', async ({ page }) => {
  const user = newUser('shell');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));

  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('heading', { name: 'Workspace' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'My Links' })).toBeVisible();
  await expect(nav.getByRole('heading', { name: 'Account' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', `/Upgrade/${user.username}`);

  await page.keyboard.press('Control+b');
  await expect(nav.getByRole('heading', { name: 'Workspace' })).toBeHidden();
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'sidebar_state')?.value).toBe('false');
  await page.reload();
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(nav.getByRole('heading', { name: 'Workspace' })).toBeHidden();
  await page.keyboard.press('Control+b');
  await expect(nav.getByRole('heading', { name: 'Workspace' })).toBeVisible();

  await page.goto(`/calendar/${user.username}`);
  await expect(page.getByRole('heading', { name: 'My Calendar & Tasks' })).toBeVisible();
  await page.goto('/voting');
  await expect(page.getByRole('heading', { name: 'Public Voting Board' })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 800 });
  const header = page.getByRole('banner');
  await expect(header.getByText('Linkboard')).toBeVisible();
  await expect(header.getByRole('button', { name: 'Logout' })).toBeVisible();
  await header.getByRole('button', { name: 'Toggle sidebar' }).click();
  await page.getByRole('link', { name: 'Upcoming' }).click();
  await expect(page).toHaveURL(new RegExp(`/Upcoming/${user.username}$`));
  await expect(page.getByRole('heading', { name: 'Upcoming' })).toBeVisible();
});
