/**
 * Fault: the network flaps (on and off every 100–500 ms) for a minute while two devices of one user
 * add links (docs/faults.md). Survived when every link made is on the server exactly once and both
 * devices show them all.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { pushAs } from '../support/admin.ts';
import { syncStatus } from '../support/workspace.ts';
import { firstDevice, otherDevice, type Device } from './support/devices.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';

const FLAP_MS = Number(process.env.FAULTS_FLAP_MS ?? 60_000);

let stack: FaultStack;
test.beforeAll(async () => {
  stack = await startFaultStack('flap');
});
test.afterAll(async () => stack?.dispose());

/** A seeded sequence of waits, 100–500 ms, the same every run. */
function flapDelays(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return 100 + (state % 401);
  };
}

async function flap(device: Device, until: number, seed: number): Promise<void> {
  const next = flapDelays(seed);
  let offline = false;
  while (Date.now() < until) {
    offline = !offline;
    await device.context.setOffline(offline);
    await new Promise((resolve) => setTimeout(resolve, next()));
  }
  await device.context.setOffline(false);
}

async function addLinks(device: Device, prefix: string, until: number): Promise<string[]> {
  const titles: string[] = [];
  for (let i = 0; Date.now() < until; i++) {
    const title = `${prefix} ${i}`;
    await device.page.getByRole('button', { name: 'Add Link', exact: true }).click();
    const dialog = device.page.getByRole('dialog', { name: 'Add Link' });
    await dialog.getByLabel('URL').fill(`https://example.com/${prefix}/${i}`);
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByRole('button', { name: 'Add Link' }).click();
    await expect(dialog).toBeHidden();
    titles.push(title);
  }
  return titles;
}

test('the network flapping every 100–500 ms for a minute while two devices add links', async ({ browser }) => {
  const a = await firstDevice(browser, stack, 'flap');
  const b = await otherDevice(browser, stack, a.user);
  const dirId = randomUUID();
  await pushAs(stack.url, a.user, [{ name: 'directory.create', args: { id: dirId, name: 'Flapping' } }]);

  // Both devices hold the directory before the network starts to flap.
  for (const device of [a, b]) {
    await device.page.goto(`/Links/${a.user.username}/dir/${dirId}`);
    await expect(device.page.getByRole('heading', { name: 'Flapping' })).toBeVisible();
  }

  const until = Date.now() + FLAP_MS;
  const [madeA, madeB] = await Promise.all([
    addLinks(a, 'A', until),
    addLinks(b, 'B', until),
    flap(a, until, 1),
    flap(b, until, 2),
  ]);
  const made = [...madeA, ...madeB].sort();
  expect(made.length).toBeGreaterThan(10);

  for (const device of [a, b]) await expect(syncStatus(device.page)).toHaveText('Synced', { timeout: 60_000 });
  const rows = await stack.query<{ title: string }>(
    'select title from public.saved_links where directory_id = $1 and deleted_at is null order by title',
    [dirId],
  );
  // Nothing lost, nothing applied twice.
  expect(rows.map((row) => row.title)).toEqual(made);
  // Both devices show every link (the directory's count, as the screen reads it).
  for (const device of [a, b]) {
    await device.page.reload();
    await expect(device.page.getByText(`${made.length} links`, { exact: true })).toBeVisible();
  }
  await a.context.close();
  await b.context.close();
});
