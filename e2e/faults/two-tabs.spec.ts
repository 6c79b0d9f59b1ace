/**
 * Fault: two tabs of one device (and the service worker's Background Sync) drain the same queue
 * at once (docs/faults.md). Both tabs make changes offline, another device of the user has changes
 * waiting too, and the network comes back for all of them together. Survived when no mutation id
 * is pushed twice (the sync_push bodies of the device's tabs and worker, counted), the server has
 * every change once, and both tabs and the other device show the same links.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { pushAs } from '../support/admin.ts';
import { controlledByServiceWorker, syncStatus } from '../support/workspace.ts';
import { firstDevice, otherDevice } from './support/devices.ts';
import { readOutbox } from './support/device-db.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';

const EACH = 5;

let stack: FaultStack;
test.beforeAll(async () => {
  stack = await startFaultStack('tabs');
});
test.afterAll(async () => stack?.dispose());

async function addLinks(page: Page, prefix: string): Promise<string[]> {
  const titles: string[] = [];
  for (let i = 0; i < EACH; i++) {
    const title = `${prefix} ${i}`;
    await page.getByRole('button', { name: 'Add Link', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Link' });
    await dialog.getByLabel('URL').fill(`https://example.com/tabs/${prefix}/${i}`);
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByRole('button', { name: 'Add Link' }).click();
    await expect(dialog).toBeHidden();
    titles.push(title);
  }
  return titles;
}

/**
 * Every mutation id in the sync_push requests of `context` (its tabs and its service worker) that
 * reached the server and were answered; one the network refused (offline) was not pushed.
 */
function countPushedIds(context: BrowserContext): Map<string, number> {
  const pushed = new Map<string, number>();
  context.on('requestfinished', (request) => {
    if (!request.url().includes('/rpc/sync_push')) return;
    if (process.env.FAULTS_DEBUG) console.log('push from', request.serviceWorker() ? 'worker' : 'tab');
    const body = request.postDataJSON() as { p_mutations?: { id: string }[] } | null;
    for (const mutation of body?.p_mutations ?? []) pushed.set(mutation.id, (pushed.get(mutation.id) ?? 0) + 1);
  });
  return pushed;
}

test('two tabs and the service worker sync the same queue at once', async ({ browser }) => {
  const a = await firstDevice(browser, stack, 'tabs');
  const b = await otherDevice(browser, stack, a.user);
  const dirId = randomUUID();
  await pushAs(stack.url, a.user, [{ name: 'directory.create', args: { id: dirId, name: 'Tabs' } }]);
  await controlledByServiceWorker(a.page);
  const tab2 = await a.context.newPage();
  // The service worker's registration, to fire its Background Sync (DevTools protocol).
  const worker = await a.context.newCDPSession(a.page);
  const registered = new Promise<string>((resolve) =>
    worker.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((entry) => entry.scopeURL.startsWith(stack.url) && !entry.isDeleted);
      if (mine) resolve(mine.registrationId);
    }),
  );
  await worker.send('ServiceWorker.enable');
  const registrationId = await registered;
  const pushed = countPushedIds(a.context);

  const pages = [a.page, tab2, b.page];
  for (const page of pages) {
    await page.goto(`/Links/${a.user.username}/dir/${dirId}`);
    await expect(page.getByRole('heading', { name: 'Tabs' })).toBeVisible();
  }
  await a.context.setOffline(true);
  await b.context.setOffline(true);
  const made = (await Promise.all([addLinks(a.page, 'Tab1'), addLinks(tab2, 'Tab2'), addLinks(b.page, 'B')]))
    .flat()
    .sort();
  const queued = (await readOutbox(a.page)).map((entry) => entry.id);
  expect(queued).toHaveLength(2 * EACH);

  // The network comes back for both tabs at once, the worker's Background Sync fires with it, and
  // the other device comes back too.
  await Promise.all([
    a.context.setOffline(false),
    b.context.setOffline(false),
    worker.send('ServiceWorker.dispatchSyncEvent', {
      origin: new URL(stack.url).origin,
      registrationId,
      tag: 'linkboard-sync',
      lastChance: false,
    }),
  ]);
  for (const page of pages) await expect(syncStatus(page)).toHaveText('Synced', { timeout: 60_000 });

  // One engine pushed at a time: each of the device's changes went once.
  expect([...pushed.keys()].sort()).toEqual([...queued].sort());
  expect([...pushed].filter(([, count]) => count > 1)).toEqual([]);
  const rows = await stack.query<{ title: string }>(
    'select title from public.saved_links where directory_id = $1 and deleted_at is null order by title',
    [dirId],
  );
  expect(rows.map((row) => row.title)).toEqual(made);
  for (const page of pages) await expect(page.getByText(`${made.length} links`, { exact: true })).toBeVisible();
  await a.context.close();
  await b.context.close();
});
