/**
 * Fault: the browser clears the app's storage (docs/faults.md). With changes waiting offline on
 * this device and another, the user's IndexedDB database is deleted from the page, as the browser
 * does under storage pressure, and the app starts again. Survived when the user is told how many
 * changes could not be sent, the rest comes back from the server, the other device's change lands
 * once, and the lost ones are not on the server (nothing invented).
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { pushAs } from '../support/admin.ts';
import { controlledByServiceWorker, syncStatus, userDbName } from '../support/workspace.ts';
import { firstDevice, otherDevice } from './support/devices.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';

let stack: FaultStack;
test.beforeAll(async () => {
  stack = await startFaultStack('evicted');
});
test.afterAll(async () => stack?.dispose());

async function addLink(page: Page, title: string) {
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill(`https://example.com/evicted/${encodeURIComponent(title)}`);
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog).toBeHidden();
}

const notices = (page: Page) => page.getByRole('region', { name: /^Notifications/ });

/** The note of waiting changes the app keeps outside IndexedDB (src/data/outbox-marker.ts). */
function waitingNoted(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((name) => name.startsWith('lb_outbox_'));
    return key ? (JSON.parse(localStorage.getItem(key) ?? 'null') as { waiting: number }).waiting : null;
  });
}

test("the browser clears the app's storage while changes wait", async ({ browser }) => {
  const a = await firstDevice(browser, stack, 'evicted');
  const b = await otherDevice(browser, stack, a.user);
  const dirId = randomUUID();
  await pushAs(stack.url, a.user, [
    { name: 'directory.create', args: { id: dirId, name: 'Evicted' } },
    {
      name: 'link.create',
      args: { id: randomUUID(), directory_id: dirId, url: 'https://example.com/kept', title: 'Kept' },
    },
  ]);
  await controlledByServiceWorker(a.page);
  // Signed in: the browser was asked once to keep the app's data, and Profile says why.
  await expect.poll(() => a.page.evaluate(() => localStorage.getItem('lb_persist_asked'))).not.toBeNull();
  await a.page.goto(`/Profile/${a.user.username}`);
  await expect(a.page.getByText(/^Linkboard asks your browser to keep its data on this device/)).toBeVisible();

  for (const device of [a, b]) {
    await device.page.goto(`/Links/${a.user.username}/dir/${dirId}`);
    await expect(device.page.getByText('Kept', { exact: true })).toBeVisible();
    await device.context.setOffline(true);
  }
  await addLink(b.page, 'B waiting');
  await addLink(a.page, 'A lost 1');
  await addLink(a.page, 'A lost 2');
  await expect(syncStatus(a.page)).toHaveText('Offline — 2 changes waiting');
  await expect.poll(() => waitingNoted(a.page)).toBe(2);

  // The browser clears the database (the app's open connection closes on the version change).
  const name = await userDbName(a.page);
  expect(name).toBeTruthy();
  await a.page.evaluate(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error ?? new Error('delete failed'));
      }),
    name!,
  );
  await a.page.reload();
  await expect(
    notices(a.page).getByText(
      "2 changes made on this device could not be sent: the browser cleared the app's storage.",
    ),
  ).toBeVisible();

  for (const device of [a, b]) await device.context.setOffline(false);
  for (const device of [a, b]) await expect(syncStatus(device.page)).toHaveText('Synced', { timeout: 60_000 });
  const rows = await stack.query<{ title: string }>(
    'select title from public.saved_links where directory_id = $1 and deleted_at is null order by title',
    [dirId],
  );
  expect(rows.map((row) => row.title)).toEqual(['B waiting', 'Kept']);
  // The rest came back from the server; the note now counts the new database, so a restart tells nothing.
  await expect(a.page.getByText('B waiting', { exact: true })).toBeVisible();
  await expect(a.page.getByText('Kept', { exact: true })).toBeVisible();
  await expect.poll(() => waitingNoted(a.page)).toBe(0);
  await a.page.reload();
  await expect(a.page.getByText('B waiting', { exact: true })).toBeVisible();
  await expect(syncStatus(a.page)).toHaveText('Synced');
  await expect(notices(a.page).getByText(/could not be sent: the browser cleared/)).toHaveCount(0);
  await a.context.close();
  await b.context.close();
});
