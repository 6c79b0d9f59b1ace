/**
 * Fault: the device's storage is full (docs/faults.md), while changes wait offline on this device
 * and another: IndexedDB refuses the next change's writes with the browser's QuotaExceededError.
 * Chromium 150 keeps a quota set through the DevTools protocol (Storage.overrideQuotaForOrigin:
 * Storage.getUsageAndQuota reports it) but neither IndexedDB's writes nor navigator.storage see it,
 * and an origin's real quota (gigabytes) is too large to fill in a test; so the page's
 * IDBObjectStore writes throw the QuotaExceededError DOMException while the device is full, and
 * Dexie aborts the transaction as it does on the real refusal. Survived when the user is told, nothing of the refused change is stored or
 * queued, the waiting queue is intact, and once space is freed the same change goes through and
 * everything reaches the server once.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { pushAs } from '../support/admin.ts';
import { syncStatus } from '../support/workspace.ts';
import { firstDevice, otherDevice } from './support/devices.ts';
import { readOutbox } from './support/device-db.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';

const STORAGE_FULL = 'Your device is out of storage space. Free some space, then try again.';

let stack: FaultStack;
test.beforeAll(async () => {
  stack = await startFaultStack('full');
});
test.afterAll(async () => stack?.dispose());

/** IndexedDB's writes refused for want of space (`full`), or taken again. */
async function storageFull(page: Page, full: boolean): Promise<void> {
  await page.evaluate((full) => {
    type Write = (this: IDBObjectStore, ...args: unknown[]) => IDBRequest;
    const proto = IDBObjectStore.prototype as unknown as Record<'put' | 'add', Write> & { __lbWrites?: Write[] };
    if (!proto.__lbWrites) proto.__lbWrites = [proto.put, proto.add];
    const [put, add] = proto.__lbWrites as [Write, Write];
    const refuse = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    proto.put = full ? refuse : put;
    proto.add = full ? refuse : add;
  }, full);
}

async function fillLink(page: Page, title: string) {
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill(`https://example.com/full/${encodeURIComponent(title)}`);
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  return dialog;
}

test('the device runs out of storage space while changes wait', async ({ browser }) => {
  const a = await firstDevice(browser, stack, 'full');
  const b = await otherDevice(browser, stack, a.user);
  const dirId = randomUUID();
  await pushAs(stack.url, a.user, [{ name: 'directory.create', args: { id: dirId, name: 'Full' } }]);
  for (const device of [a, b]) {
    await device.page.goto(`/Links/${a.user.username}/dir/${dirId}`);
    await expect(device.page.getByRole('heading', { name: 'Full' })).toBeVisible();
    await device.context.setOffline(true);
  }
  await expect(await fillLink(b.page, 'B waiting')).toBeHidden();
  for (const title of ['A waiting 1', 'A waiting 2']) await expect(await fillLink(a.page, title)).toBeHidden();
  await expect(syncStatus(a.page)).toHaveText('Offline — 2 changes waiting');
  const waiting = await readOutbox(a.page);
  expect(waiting).toHaveLength(2);

  // The storage is full.
  await storageFull(a.page, true);

  const dialog = await fillLink(a.page, 'No room');
  await expect(dialog.getByText(STORAGE_FULL)).toBeVisible();
  // Nothing of it stored or queued; the queue waiting is intact.
  expect(await readOutbox(a.page)).toEqual(waiting);
  const stored = await a.page.evaluate(async (dirId) => {
    const name = (await indexedDB.databases())
      .map((db) => db.name ?? '')
      .find((n) => /^linkboard-[0-9a-f-]{36}$/.test(n));
    return new Promise<string[]>((resolve, reject) => {
      const open = indexedDB.open(name!);
      open.onerror = () => reject(open.error ?? new Error('open failed'));
      open.onsuccess = () => {
        const request = open.result
          .transaction('saved_links')
          .objectStore('saved_links')
          .index('[directory_id+created_at+id]')
          .getAll(IDBKeyRange.bound([dirId], [dirId, []]));
        request.onsuccess = () => {
          open.result.close();
          resolve((request.result as { title: string }[]).map((row) => row.title).sort());
        };
      };
    });
  }, dirId);
  expect(stored).toEqual(['A waiting 1', 'A waiting 2']);

  // Space freed: the same change goes through.
  await storageFull(a.page, false);
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog).toBeHidden();
  await expect(syncStatus(a.page)).toHaveText('Offline — 3 changes waiting');

  for (const device of [a, b]) await device.context.setOffline(false);
  for (const device of [a, b]) await expect(syncStatus(device.page)).toHaveText('Synced', { timeout: 60_000 });
  const rows = await stack.query<{ title: string }>(
    'select title from public.saved_links where directory_id = $1 and deleted_at is null order by title',
    [dirId],
  );
  expect(rows.map((row) => row.title)).toEqual(['A waiting 1', 'A waiting 2', 'B waiting', 'No room']);
  for (const device of [a, b]) {
    await device.page.reload();
    await expect(device.page.getByText('4 links', { exact: true })).toBeVisible();
  }
  await a.context.close();
  await b.context.close();
});
