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

test('a service worker started anew runs a Background Sync: the sync script comes from its stored copy', async ({
  page,
  context,
}) => {
  const user = newUser('bg_restart');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const hasSync = await page.evaluate(async () => 'sync' in (await navigator.serviceWorker.ready));
  test.skip(!hasSync, 'this browser has no Background Sync');
  await page.close();
  // The worker stopped, as the browser stops it once no page needs it. The next start (this page's
  // navigation) no longer evaluates the sync; the sync event imports it.
  const next = await context.newPage();
  const cdp = await context.newCDPSession(next);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await next.goto(`/Dashboard/${user.username}`);
  await expect.poll(() => next.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const outcome = await next.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        navigator.serviceWorker.addEventListener('message', (event) => {
          const data = event.data as { type?: string; outcome?: unknown } | null;
          if (data?.type === 'linkboard-sync-done') resolve(data.outcome);
        });
        void navigator.serviceWorker.ready.then((registration) =>
          (registration as unknown as { sync: { register(tag: string): Promise<void> } }).sync.register(
            'linkboard-sync',
          ),
        );
      }),
  );
  expect(outcome).toBe('synced');
});
