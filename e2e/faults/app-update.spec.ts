/**
 * Fault: the app is updated while changes written by the older app wait in the device's outbox
 * (docs/faults.md). The entries are put in IndexedDB as the older app stored them (version 1: no
 * `version` field), with one of a mutation this app no longer knows and one written by a newer
 * app, while the device is offline; the current app then starts. Survived when each entry either
 * lands on the server once or is failed with its reason in the failed-changes panel, and none
 * vanishes; the other device's waiting change lands too.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { pushAs } from '../support/admin.ts';
import { controlledByServiceWorker, syncStatus } from '../support/workspace.ts';
import { firstDevice, otherDevice } from './support/devices.ts';
import { putOutboxEntries, readOutbox } from './support/device-db.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';

let stack: FaultStack;
test.beforeAll(async () => {
  stack = await startFaultStack('update');
});
test.afterAll(async () => stack?.dispose());

/** An outbox entry as the app before versions stored it (OUTBOX_VERSION 1: no `version`). */
function versionOne(name: string, args: Record<string, unknown>) {
  return { id: randomUUID(), name, args, created_at: new Date().toISOString(), attempts: 0, status: 'pending' };
}

test('an app update while changes of the older app wait in the outbox', async ({ browser }) => {
  const a = await firstDevice(browser, stack, 'update');
  const b = await otherDevice(browser, stack, a.user);
  const dirId = randomUUID();
  await pushAs(stack.url, a.user, [{ name: 'directory.create', args: { id: dirId, name: 'Before the update' } }]);
  await controlledByServiceWorker(a.page);
  await expect(syncStatus(a.page)).toHaveText('Synced');

  // Device B has a change waiting too (made with the current app, offline).
  await b.page.goto(`/Links/${a.user.username}/dir/${dirId}`);
  await expect(b.page.getByRole('heading', { name: 'Before the update' })).toBeVisible();
  await b.context.setOffline(true);
  await b.page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = b.page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill('https://example.com/update/b');
  await dialog.getByLabel('Title').fill('B offline');
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog).toBeHidden();

  // Device A, offline: the older app's queue, as it stored it.
  await a.context.setOffline(true);
  const newDir = randomUUID();
  const old = [
    versionOne('directory.create', { id: newDir, name: 'From the old app' }),
    versionOne('link.create', {
      id: randomUUID(),
      directory_id: newDir,
      url: 'https://example.com/old/1',
      title: 'Old 1',
    }),
    versionOne('link.create', {
      id: randomUUID(),
      directory_id: dirId,
      url: 'https://example.com/old/2',
      title: 'Old 2',
    }),
    // A mutation the older app had and this one no longer knows.
    versionOne('link.add', { id: randomUUID(), directory_id: dirId, url: 'https://example.com/old/3', title: 'Old 3' }),
    // Written by a newer app than this one (the device went back a version).
    {
      ...versionOne('link.create', {
        id: randomUUID(),
        directory_id: dirId,
        url: 'https://example.com/new/1',
        title: 'New 1',
      }),
      version: 99,
    },
  ];
  await putOutboxEntries(a.page, old);

  // The current app starts (offline, from the service worker), then the network comes back.
  await a.page.reload();
  await expect(syncStatus(a.page)).toHaveText(/^Offline/);
  await a.context.setOffline(false);
  await b.context.setOffline(false);

  const panel = a.page.getByRole('region', { name: 'Changes that could not be saved' });
  await expect(panel.getByText('Link add', { exact: true })).toBeVisible();
  await expect(panel.getByText(/^This change is damaged and cannot be sent\./)).toBeVisible();
  await expect(
    panel.getByText('This change was saved by a newer version of Linkboard. Update the app to send it.'),
  ).toBeVisible();
  await expect(syncStatus(a.page)).toHaveText(/2 changes could not be saved/, { timeout: 60_000 });
  await expect(syncStatus(b.page)).toHaveText('Synced', { timeout: 60_000 });

  // What could be upgraded is on the server once; B's change too.
  const links = await stack.query<{ title: string }>(
    'select title from public.saved_links where deleted_at is null order by title',
  );
  expect(links.map((row) => row.title)).toEqual(['B offline', 'Old 1', 'Old 2']);
  const dirs = await stack.query<{ name: string }>(
    'select name from public.link_directories where deleted_at is null order by name',
  );
  expect(dirs.map((row) => row.name)).toEqual(['Before the update', 'From the old app']);
  const applied = await stack.query<{ id: string }>('select mutation_id::text as id from public.sync_mutations');
  expect(applied.map((row) => row.id)).toEqual(expect.arrayContaining(old.slice(0, 3).map((entry) => entry.id)));

  // None vanished: the two that could not be sent wait in the outbox, failed, with their reason.
  const left = await readOutbox(a.page);
  expect(left.map((entry) => [entry.id, entry.status]).sort()).toEqual(
    [
      [old[3]!.id, 'failed'],
      [old[4]!.id, 'failed'],
    ].sort(),
  );
  await a.context.close();
  await b.context.close();
});
