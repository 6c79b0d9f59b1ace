/**
 * Fault: PostgreSQL stopped (`pg_ctl stop -m fast`) and started again while two devices of one
 * user push and pull: one device's push inside its transaction (held by the stack's fault hook,
 * supabase/local/fault-hold.ts), the other's first pull of a few hundred links in flight, and
 * writes queued while the database is down (docs/faults.md). The cluster is the spec's own
 * (support/private-cluster.ts), never one other steps use. Survived when every answer the devices
 * got during the fault said 'retry' (502, 503, 504), never another 5xx; every write is on the
 * server exactly once; both devices show every link.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { LoginPage } from '../pages/login-page.ts';
import { pushAs } from '../support/admin.ts';
import { outboxAndTheme, syncStatus } from '../support/workspace.ts';
import { firstDevice } from './support/devices.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';
import { addLink, openDirectory } from './support/links.ts';
import { startPrivateCluster, type PrivateCluster } from './support/private-cluster.ts';

const SEEDED = 400;
const holdFile = join(tmpdir(), `lb-fault-hold-${randomBytes(4).toString('hex')}`);

let cluster: PrivateCluster;
let stack: FaultStack;
test.beforeAll(async () => {
  cluster = await startPrivateCluster('restart');
  stack = await startFaultStack(
    'pgrestart',
    { LINKBOARD_FAULT_PUSH_HOLD_FILE: holdFile },
    { adminUrl: cluster.adminUrl },
  );
});
test.afterAll(async () => {
  rmSync(holdFile, { force: true });
  try {
    // The cluster may be stopped if the fault failed half-way: started again so the stack's database can go.
    await cluster?.start().catch(() => undefined);
    await stack?.dispose();
  } finally {
    await cluster?.dispose();
  }
});

/** The sync answers a page gets with a 5xx status (what the device was told while the database was away). */
function serverFailures(page: Page): number[] {
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/rest/v1/rpc/sync_') && response.status() >= 500) statuses.push(response.status());
  });
  return statuses;
}

test('PostgreSQL restarted while two devices push and pull', async ({ browser }) => {
  const a = await firstDevice(browser, stack, 'pgrestart');
  const dirId = randomUUID();
  await pushAs(stack.url, a.user, [
    { name: 'directory.create', args: { id: dirId, name: 'Restarted' } },
    ...Array.from({ length: SEEDED }, (_, i) => ({
      name: 'link.create',
      args: { id: randomUUID(), directory_id: dirId, url: `https://example.com/seed/${i}`, title: `Seed ${i}` },
    })),
  ]);
  await openDirectory(a, a.user.username, dirId, 'Restarted');
  await expect(a.page.getByText(`${SEEDED} links`, { exact: true })).toBeVisible();
  const failuresA = serverFailures(a.page);

  // Device A's push is held inside its transaction when the database goes.
  writeFileSync(holdFile, 'before-commit');
  await addLink(a, 'A 1', 'https://example.com/a/1');
  await stack.waitForOutput('[fault] sync_push held before-commit');

  // Device B signs in; its first pull (every seeded link) is in flight when the database goes.
  const bContext = await browser.newContext({ baseURL: stack.url });
  let pullCaught!: () => void;
  const caught = new Promise<void>((resolve) => (pullCaught = resolve));
  let releasePull!: () => void;
  const released = new Promise<void>((resolve) => (releasePull = resolve));
  let holding = true;
  await bContext.route('**/rest/v1/rpc/sync_pull', async (route) => {
    if (holding) {
      holding = false;
      pullCaught();
      await released;
    }
    await route.continue();
  });
  const b = { context: bContext, page: await bContext.newPage() };
  const failuresB = serverFailures(b.page);
  const login = new LoginPage(b.page);
  await login.open();
  await login.signIn(a.user);
  await caught;

  await cluster.stop();
  // The held push goes on to COMMIT on a connection the database has closed; B's pull reaches the
  // stack while the database is down. Both are answered.
  const pushAnswered = a.page.waitForResponse((response) => response.url().includes('/rest/v1/rpc/sync_push'));
  const pullAnswered = b.page.waitForResponse((response) => response.url().includes('/rest/v1/rpc/sync_pull'));
  rmSync(holdFile, { force: true });
  releasePull();
  await Promise.all([pushAnswered, pullAnswered]);
  // More writes queue on A while the database is down.
  await addLink(a, 'A 2', 'https://example.com/a/2');
  expect((await outboxAndTheme(a.page)).outbox).toBeGreaterThan(0);
  await cluster.start();

  for (const device of [a, b]) await expect(syncStatus(device.page)).toHaveText('Synced', { timeout: 60_000 });
  // The devices were told to retry, never given a failure that counts against a write.
  expect([...failuresA, ...failuresB].filter((status) => ![502, 503, 504].includes(status))).toEqual([]);
  const rows = await stack.query<{ title: string }>(
    `select title from public.saved_links where directory_id = $1 and deleted_at is null`,
    [dirId],
  );
  const titles = rows.map((row) => row.title);
  // Every write on the server exactly once.
  expect(titles.length).toBe(SEEDED + 2);
  expect(titles.filter((title) => title.startsWith('A '))).toEqual(expect.arrayContaining(['A 1', 'A 2']));
  expect(new Set(titles).size).toBe(titles.length);
  // Both devices show every link.
  for (const device of [a, b]) {
    await openDirectory(device, a.user.username, dirId, 'Restarted');
    await expect(device.page.getByText(`${SEEDED + 2} links`, { exact: true })).toBeVisible();
  }
  await a.context.close();
  await b.context.close();
});
