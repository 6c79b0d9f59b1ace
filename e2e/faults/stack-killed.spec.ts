/**
 * Fault: the stack killed (SIGKILL) during a push and started again, at three moments: before the
 * push's transaction begins, inside it after sync_push ran but before COMMIT, and after COMMIT
 * before the answer left (docs/faults.md). The stack's fault hook (supabase/local/fault-hold.ts)
 * holds the push there. Survived when every write of both devices is on the server exactly once,
 * the one committed before the kill not applied again on its replay, and both devices show them all.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { pushAs, userIdOf } from '../support/admin.ts';
import { outboxAndTheme, syncStatus } from '../support/workspace.ts';
import { firstDevice, otherDevice, type Device } from './support/devices.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';
import { addLink, openDirectory, renameLink } from './support/links.ts';

const holdFile = join(tmpdir(), `lb-fault-hold-${randomBytes(4).toString('hex')}`);

let stack: FaultStack;
test.beforeAll(async () => {
  stack = await startFaultStack('killed', { LINKBOARD_FAULT_PUSH_HOLD_FILE: holdFile });
});
test.afterAll(async () => {
  rmSync(holdFile, { force: true });
  await stack?.dispose();
});

/** A device's writes: its seeded link renamed first (so the first push held carries an update), then two links added. */
async function write(device: Device, prefix: string): Promise<void> {
  await renameLink(device, `${prefix} seed`, `${prefix} seed renamed`);
  await addLink(device, `${prefix} 1`, `https://example.com/${prefix}/1`);
  await addLink(device, `${prefix} 2`, `https://example.com/${prefix}/2`);
}

const EXPECTED = ['A 1', 'A 2', 'A seed renamed', 'B 1', 'B 2', 'B seed renamed'];

const moments = [
  { point: 'before-transaction', title: 'the stack killed during a push, before its transaction begins' },
  { point: 'before-commit', title: 'the stack killed during a push, inside its transaction before COMMIT' },
  { point: 'after-commit', title: 'the stack killed during a push, after COMMIT before the answer' },
] as const;

for (const moment of moments) {
  test(moment.title, async ({ browser }) => {
    rmSync(holdFile, { force: true });
    const a = await firstDevice(browser, stack, 'killed');
    const b = await otherDevice(browser, stack, a.user);
    const userId = await userIdOf(stack.url, a.user);
    const dirId = randomUUID();
    await pushAs(stack.url, a.user, [
      { name: 'directory.create', args: { id: dirId, name: 'Killed' } },
      ...['A', 'B'].map((prefix) => ({
        name: 'link.create',
        args: { id: randomUUID(), directory_id: dirId, url: `https://example.com/${prefix}`, title: `${prefix} seed` },
      })),
    ]);
    for (const device of [a, b]) {
      await openDirectory(device, a.user.username, dirId, 'Killed');
      await expect(device.page.getByText('2 links', { exact: true })).toBeVisible();
    }
    const links = () =>
      stack.query<{ id: string; title: string; txid: string }>(
        `select id, title, txid::text from public.saved_links
          where directory_id = $1 and deleted_at is null order by title`,
        [dirId],
      );

    // Every push is held at the moment; both devices write meanwhile.
    writeFileSync(holdFile, moment.point);
    await Promise.all([write(a, 'A'), write(b, 'B')]);
    await stack.waitForOutput(`[fault] sync_push held ${moment.point}`);
    // Writes wait on both devices when the stack dies.
    for (const device of [a, b]) expect((await outboxAndTheme(device.page)).outbox).toBeGreaterThan(0);
    const before = await links();
    if (moment.point === 'after-commit') {
      // The server has a push's writes; its device never heard.
      expect(before.map((row) => row.title)).toEqual(expect.arrayContaining([expect.stringMatching(/renamed$/)]));
    } else {
      // Nothing of the held pushes is committed.
      expect(before.map((row) => row.title)).toEqual(['A seed', 'B seed']);
    }

    await stack.kill();
    await stack.start();
    rmSync(holdFile, { force: true });

    for (const device of [a, b]) await expect(syncStatus(device.page)).toHaveText('Synced', { timeout: 60_000 });
    const after = await links();
    // Every write on the server exactly once.
    expect(after.map((row) => row.title)).toEqual(EXPECTED);
    // Each mutation recorded once, applied (the seed's three and each device's three).
    const [record] = await stack.query<{ applied: number; total: number }>(
      `select count(*) filter (where result ->> 'status' = 'applied')::int as applied, count(*)::int as total
         from public.sync_mutations where user_id = $1`,
      [userId],
    );
    expect(record).toEqual({ applied: 9, total: 9 });
    // What was committed before the kill was not applied again when its push was replayed.
    const txidAfter = new Map(after.map((row) => [row.id, row.txid]));
    const committed = before.filter((row) => !row.title.endsWith(' seed'));
    for (const row of committed) expect(txidAfter.get(row.id), `${row.title}'s txid`).toBe(row.txid);
    // Both devices show every link.
    for (const device of [a, b]) {
      await device.page.reload();
      for (const title of EXPECTED) await expect(device.page.getByText(title, { exact: true }).first()).toBeVisible();
      await expect(device.page.getByText(`${EXPECTED.length} links`, { exact: true })).toBeVisible();
    }
    await a.context.close();
    await b.context.close();
  });
}
