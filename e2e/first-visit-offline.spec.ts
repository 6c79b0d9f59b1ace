/**
 * A device no service worker serves yet (a first visit while the worker installs, a browser or a
 * private window without service workers): the write path loads ahead of the change
 * (src/app/sync/write-path.ts), and the notices show even when their chunk cannot load.
 */
import { expect, test, type Page } from '@playwright/test';
import { fillWhen } from './pages/event-dialog.ts';
import { LoginPage, newUser } from './pages/login-page.ts';
import { addLink, createDirectory, signUpAndSync, syncStatus } from './support/workspace.ts';

/** The app's chunks whose loading finished on `page`, by name without the hash. */
function loadedChunks(page: Page): Set<string> {
  const names = new Set<string>();
  page.on('requestfinished', (request) => {
    const match = /\/assets\/([\w.-]+)-[\w-]{8}\.js$/.exec(new URL(request.url()).pathname);
    if (match?.[1]) names.add(match[1]);
  });
  return names;
}

test('without a service worker, an event added after the network is gone is saved and synced later', async ({
  page,
  browser,
}) => {
  const user = newUser('first_visit');
  await signUpAndSync(page, user);

  const context = await browser.newContext({ serviceWorkers: 'block' });
  const phone = await context.newPage();
  const chunks = loadedChunks(phone);
  const login = new LoginPage(phone);
  await login.open();
  await login.signIn(user);
  await expect(phone).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await phone.goto(`/Calendar/${user.username}`);
  const badge = phone.getByText(/^\d+\/10 events this month$/);
  await expect(badge).toHaveText('0/10 events this month');
  await expect(syncStatus(phone)).toHaveText('Synced');
  expect(await phone.evaluate(() => navigator.serviceWorker?.controller ?? null)).toBeNull();
  // Nothing on the page has been touched: the write path comes in once the screen is idle.
  await expect.poll(() => ['mutate', 'mutators', 'toaster'].every((name) => chunks.has(name))).toBe(true);

  await context.setOffline(true);
  await expect(syncStatus(phone)).toHaveText(/^Offline/);
  await phone.getByRole('button', { name: 'Add Event or Task' }).click();
  const dialog = phone.getByRole('dialog', { name: 'Add Event or Task' });
  await dialog.getByLabel('Title').fill('In the tunnel');
  // Tomorrow at 09:00 in the browser's zone.
  const tomorrow = await phone.evaluate(() => {
    const next = new Date(Date.now() + 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${next.getFullYear()}-${pad(next.getMonth() + 1)}-${pad(next.getDate())}`;
  });
  await fillWhen(dialog, 'Start', `${tomorrow}T09:00`);
  await dialog.getByRole('button', { name: 'Add Event' }).click();
  await expect(dialog).toBeHidden();
  await expect(syncStatus(phone)).toHaveText('Offline — 1 change waiting');

  await context.setOffline(false);
  await expect(syncStatus(phone)).toHaveText('Synced', { timeout: 40_000 });
  await page.goto(`/Upcoming/${user.username}`);
  await expect(page.getByRole('region', { name: 'Future Events' }).getByText('In the tunnel')).toBeVisible();
  await context.close();
});

test("a notice shows even when the toast area's code cannot load", async ({ page }) => {
  await page.route(/\/assets\/toaster-[\w-]{8}\.js$/, (route) => route.abort('internetdisconnected'));
  await page.goto('/privacy');
  await page.getByRole('button', { name: 'Essential only' }).click();
  await page.getByRole('button', { name: 'Change my cookie choice' }).click();
  const notices = page.getByRole('list', { name: 'Notifications' });
  await expect(
    notices
      .getByRole('status')
      .filter({ hasText: 'Your cookie choice was cleared. Please choose again in the cookie banner.' }),
  ).toBeVisible();
  await notices.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notices.getByRole('status')).toHaveCount(0);
});

test('without a service worker, a dialog whose code cannot be fetched offline says so, and the screen stays', async ({
  page,
  browser,
}) => {
  const user = newUser('dialog_offline');
  await signUpAndSync(page, user);
  const dirId = await createDirectory(page, user.username, 'Tunnel');

  const context = await browser.newContext({ serviceWorkers: 'block' });
  const phone = await context.newPage();
  // The Add Link dialog's code never arrives: the network went before the screen was idle.
  const dialogCode = /\/assets\/(link|form)-dialog-[\w-]{8}\.js$/;
  await context.route(dialogCode, (route) => route.abort('internetdisconnected'));
  const login = new LoginPage(phone);
  await login.open();
  await login.signIn(user);
  await expect(phone).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await phone.goto(`/Links/${user.username}/dir/${dirId}`);
  await expect(phone.getByRole('heading', { name: 'Tunnel' })).toBeVisible();
  await context.setOffline(true);
  await expect(syncStatus(phone)).toHaveText(/^Offline/);

  await phone.getByRole('button', { name: 'Add Link', exact: true }).click();
  await expect(
    phone.getByText('This could not be opened. Check your connection and try again.', { exact: true }),
  ).toBeVisible();
  await expect(phone.getByRole('dialog', { name: 'Add Link' })).toBeHidden();
  await expect(phone.getByRole('heading', { name: 'Tunnel' })).toBeVisible();
  await expect(phone.getByText('Something went wrong')).toBeHidden();

  // Back online, the same button fetches the dialog again and it saves. Chromium keeps a module's
  // failed fetch for the life of the page: the page loads again on the same screen (once), and then
  // the button opens it.
  await context.unroute(dialogCode);
  await context.setOffline(false);
  await expect(syncStatus(phone)).toHaveText('Synced');
  const reloaded = phone.waitForEvent('load');
  await phone.getByRole('button', { name: 'Add Link', exact: true }).click();
  await reloaded;
  await expect(phone).toHaveURL(new RegExp(`/Links/${user.username}/dir/${dirId}$`));
  await expect(phone.getByRole('heading', { name: 'Tunnel' })).toBeVisible();
  await addLink(phone, 'https://example.com/tunnel', 'Out of the tunnel');
  await expect(phone.getByText('Out of the tunnel')).toBeVisible();
  await context.close();
});
