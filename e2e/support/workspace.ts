/** Steps through the signed-in workspace that several journeys share. */
import { expect, type Browser, type Page } from '@playwright/test';
import { LoginPage } from '../pages/login-page.ts';

export const syncStatus = (page: Page) => page.getByRole('status', { name: 'Sync status' });

/** Signs up through the UI and waits for the first sync to have made the user's database. */
export async function signUpAndSync(page: Page, user: { email: string; password: string; username: string }) {
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(syncStatus(page)).toHaveText('Synced');
  await expect.poll(() => userDbName(page)).toBeTruthy();
}

/** Signs the user in from a new browser context (another device); close the context when done. */
export async function signInElsewhere(browser: Browser, user: { email: string; password: string; username: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.open();
  await login.signIn(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  return { context, page };
}

/** The name of the signed-in user's IndexedDB database (`linkboard-<userId>`), if it exists yet. */
export function userDbName(page: Page): Promise<string | undefined> {
  return page.evaluate(async () => {
    const dbs = await indexedDB.databases();
    return dbs.map((db) => db.name ?? '').find((name) => name.startsWith('linkboard-') && name !== 'linkboard-auth');
  });
}

/**
 * The device's queue of changes (the outbox) and the profile's theme, read in one transaction of the
 * signed-in user's IndexedDB: a change written locally and still waiting shows in both at once.
 */
export async function outboxAndTheme(page: Page): Promise<{ outbox: number; theme: string | null }> {
  const name = await userDbName(page);
  if (!name) return { outbox: 0, theme: null };
  return page.evaluate(
    (dbName) =>
      new Promise<{ outbox: number; theme: string | null }>((resolve, reject) => {
        const open = indexedDB.open(dbName);
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['outbox', 'user_profiles'], 'readonly');
          const count = tx.objectStore('outbox').count();
          const profiles = tx.objectStore('user_profiles').getAll();
          tx.oncomplete = () => {
            const rows = profiles.result as { theme?: string }[];
            resolve({ outbox: count.result, theme: rows[0]?.theme ?? null });
            db.close();
          };
          tx.onerror = () => reject(tx.error ?? new Error('read failed'));
        };
      }),
    name,
  );
}

/**
 * Every row of `store` in the signed-in user's IndexedDB, in key order (empty before the database
 * exists); `known` is the database's name when the caller has read it already.
 */
export async function storedRows<T>(page: Page, store: string, known?: string): Promise<T[]> {
  const name = known ?? (await userDbName(page));
  if (!name) return [];
  return page.evaluate(
    ({ name, store }) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error ?? new Error('open failed'));
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction(store, 'readonly').objectStore(store).getAll();
          request.onsuccess = () => {
            db.close();
            resolve(request.result as T[]);
          };
          request.onerror = () => reject(request.error ?? new Error('read failed'));
        };
      }),
    { name, store },
  );
}

/** The titles of the links the signed-in user's IndexedDB holds, sorted. */
export async function storedLinkTitles(page: Page): Promise<string[]> {
  return (await storedRows<{ title: string }>(page, 'saved_links')).map((row) => row.title).sort();
}

/**
 * Waits until the service worker controls the page (it claims the pages open when it activates), so
 * each of the app's chunks comes from its copy: a dialog whose code was not yet fetched opens
 * offline too, as on a device that has been used before. Without it, a test that goes offline at
 * once races the screen's idle preload of its dialogs.
 */
export async function readyOffline(page: Page) {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 60_000 })
    .toBe(true);
}

/** Waits until the service worker controls the page, so a reload works offline. */
export async function controlledByServiceWorker(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await readyOffline(page);
}

/** Creates a directory from /Links/{username} and opens it; returns its id (from the URL). */
export async function createDirectory(page: Page, username: string, name: string): Promise<string> {
  await page.goto(`/Links/${username}`);
  await expect(page.getByRole('heading', { name: 'My Links' })).toBeVisible();
  await page.getByRole('button', { name: /Create New Directory/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Directory' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create Directory' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: `Open ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/Links/${username}/dir/[0-9a-f-]+$`));
  await expect(page.getByRole('heading', { name })).toBeVisible();
  const match = new RegExp(`/Links/${username}/dir/([0-9a-f-]+)$`).exec(page.url());
  if (!match?.[1]) throw new Error(`not in a directory: ${page.url()}`);
  return match[1];
}

/** Adds a link in the open directory through the Add Link dialog. */
export async function addLink(page: Page, url: string, title: string) {
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill(url);
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog).toBeHidden();
}
