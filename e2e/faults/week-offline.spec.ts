/**
 * Fault: a week offline. Device A queues 1,000 writes (three links through the Add Link dialog,
 * the rest a bookmarks file imported offline), device B two, and while they are away the server no
 * longer knows A's pull cursor (docs/faults.md): the database was restored from a backup taken
 * before it, so A's next pull is answered `reset: true` (docs/sync-protocol.md, Pull). While that
 * pull is on its way, A queues two more links. Survived when the outbox survives the reset (what
 * was queued stays on screen and is pushed), every write is on the server exactly once, and both
 * devices show them all.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { pushAs, userIdOf } from '../support/admin.ts';
import { outboxAndTheme, syncStatus, userDbName } from '../support/workspace.ts';
import { firstDevice, otherDevice, type Device } from './support/devices.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';
import { addLink, loadLinkDialog, openDirectory } from './support/links.ts';

/** Links in the bookmarks file: with its folder (one directory) and the three typed links, 1,000 writes. */
const IMPORTED = 996;

let stack: FaultStack;
test.beforeAll(async () => {
  stack = await startFaultStack('week');
});
test.afterAll(async () => stack?.dispose());

function bookmarksFile(): Buffer {
  const links = Array.from(
    { length: IMPORTED },
    (_, i) => `<DT><A HREF="https://example.com/week/${i}" ADD_DATE="1700000000">week page ${i}</A>`,
  ).join('\n');
  return Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
<DT><H3 ADD_DATE="1700000000">Week</H3>
<DL><p>
${links}
</DL><p>
</DL><p>
`);
}

/** Moves to a path within the running app (its router), without loading a page: works offline. */
async function inApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Replaces the device's stored pull cursor with one from the server's future, as a device holds
 * after the server's database is restored from an older backup; the server answers it with a reset.
 */
async function expireCursor(device: Device): Promise<void> {
  const name = await userDbName(device.page);
  if (!name) throw new Error('no local database');
  await device.page.evaluate(async (dbName) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(dbName);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const store = () => db.transaction('meta', 'readwrite').objectStore('meta');
    const row = await new Promise<{ key: string; value: string } | undefined>((resolve, reject) => {
      const get = store().get('cursor');
      get.onsuccess = () => resolve(get.result as { key: string; value: string } | undefined);
      get.onerror = () => reject(get.error);
    });
    if (!row) throw new Error('no stored cursor');
    const cursor = JSON.parse(atob(row.value)) as { since: string };
    cursor.since = String(BigInt(cursor.since) + 1_000_000_000n);
    await new Promise<void>((resolve, reject) => {
      const put = store().put({ key: 'cursor', value: btoa(JSON.stringify(cursor)) });
      put.onsuccess = () => resolve();
      put.onerror = () => reject(put.error);
    });
    db.close();
  }, name);
}

test('a week offline with 1,000 writes queued, back online with the pull cursor unknown to the server', async ({
  browser,
}) => {
  // Without a service worker: the page itself syncs when the network returns (as in a browser
  // without Background Sync), so the spec sees and holds the pull that is answered with the reset.
  const a = await firstDevice(browser, stack, 'week', { serviceWorkers: 'block' });
  const b = await otherDevice(browser, stack, a.user, { serviceWorkers: 'block' });
  const userId = await userIdOf(stack.url, a.user);
  const dirId = randomUUID();
  await pushAs(stack.url, a.user, [{ name: 'directory.create', args: { id: dirId, name: 'Away' } }]);
  await openDirectory(b, a.user.username, dirId, 'Away');
  // A's screens, the import's and both devices' Add Link dialog's code loaded while online: offline,
  // with no service worker, A moves within the app.
  await a.page.goto(`/Profile/${a.user.username}`);
  await a.page.getByRole('button', { name: 'Import bookmarks' }).click();
  await expect(a.page.getByRole('dialog', { name: 'Import bookmarks' }).getByLabel('Bookmarks file')).toBeAttached();
  await a.page.keyboard.press('Escape');
  await inApp(a.page, `/Links/${a.user.username}/dir/${dirId}`);
  await expect(a.page.getByRole('heading', { name: 'Away' })).toBeVisible();
  for (const device of [a, b]) await loadLinkDialog(device);

  // A week away: both devices offline, writes queued on each.
  for (const device of [a, b]) await device.context.setOffline(true);
  for (let i = 1; i <= 3; i++) await addLink(a, `A ${i}`, `https://example.com/a/${i}`);
  for (let i = 1; i <= 2; i++) await addLink(b, `B ${i}`, `https://example.com/b/${i}`);
  await inApp(a.page, `/Profile/${a.user.username}`);
  await a.page.getByRole('button', { name: 'Import bookmarks' }).click();
  const dialog = a.page.getByRole('dialog', { name: 'Import bookmarks' });
  await dialog
    .getByLabel('Bookmarks file')
    .setInputFiles({ name: 'bookmarks.html', mimeType: 'text/html', buffer: bookmarksFile() });
  await expect(dialog.getByText(`Found ${IMPORTED} links in 1 folder.`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('status')).toContainText(`Imported ${IMPORTED} links, in 1 new directory.`, {
    timeout: 60_000,
  });
  await dialog.getByRole('button', { name: 'Close' }).click();
  expect((await outboxAndTheme(a.page)).outbox).toBe(1000);
  expect((await outboxAndTheme(b.page)).outbox).toBe(2);
  // Meanwhile the server forgot where A's pulls stood.
  await expireCursor(a);
  await inApp(a.page, `/Links/${a.user.username}/dir/${dirId}`);
  await expect(a.page.getByText('3 links', { exact: true })).toBeVisible();

  // Back online. A's first pull after its pushes is held in the browser until A has queued two more.
  let pullCaught!: () => void;
  const caught = new Promise<void>((resolve) => (pullCaught = resolve));
  let releasePull!: () => void;
  const released = new Promise<void>((resolve) => (releasePull = resolve));
  let holding = true;
  await a.context.route('**/rest/v1/rpc/sync_pull', async (route) => {
    if (holding) {
      holding = false;
      pullCaught();
      await released;
    }
    await route.continue();
  });
  const resetAnswer = a.page.waitForResponse((response) => response.url().includes('/rest/v1/rpc/sync_pull'));
  for (const device of [a, b]) await device.context.setOffline(false);
  await caught;
  for (let i = 4; i <= 5; i++) await addLink(a, `A ${i}`, `https://example.com/a/${i}`);
  expect((await outboxAndTheme(a.page)).outbox).toBe(2);
  releasePull();
  expect(((await (await resetAnswer).json()) as { reset: boolean }).reset).toBe(true);

  for (const device of [a, b]) await expect(syncStatus(device.page)).toHaveText('Synced', { timeout: 90_000 });
  // Every write on the server exactly once, every mutation recorded once and applied.
  const links = await stack.query<{ title: string; directory: string }>(
    `select l.title, d.name as directory from public.saved_links l join public.link_directories d on d.id = l.directory_id
      where d.owner_id = $1 and l.deleted_at is null`,
    [userId],
  );
  const away = links.filter((row) => row.directory === 'Away').map((row) => row.title);
  expect(away.sort()).toEqual(['A 1', 'A 2', 'A 3', 'A 4', 'A 5', 'B 1', 'B 2']);
  const week = links.filter((row) => row.directory === 'Week').map((row) => row.title);
  expect(week.length).toBe(IMPORTED);
  expect(new Set(week).size).toBe(IMPORTED);
  expect(links.length).toBe(IMPORTED + 7);
  const [record] = await stack.query<{ applied: number; total: number }>(
    `select count(*) filter (where result ->> 'status' = 'applied')::int as applied, count(*)::int as total
       from public.sync_mutations where user_id = $1`,
    [userId],
  );
  expect(record).toEqual({ applied: 1005, total: 1005 });
  // Both devices show them all.
  for (const device of [a, b]) {
    await openDirectory(device, a.user.username, dirId, 'Away');
    await expect(device.page.getByText('7 links', { exact: true })).toBeVisible();
    await device.page.goto(`/Links/${a.user.username}`);
    await device.page.getByRole('button', { name: 'Open Week' }).click();
    await expect(device.page.getByText(`${IMPORTED} links`, { exact: true })).toBeVisible({ timeout: 30_000 });
  }
  await a.context.close();
  await b.context.close();
});
