/**
 * Fault: the devices' clocks are days off (docs/faults.md; docs/architecture.md, The server's clock).
 * One device runs 3 days ahead, the other 3 days behind (Playwright's clock, set before the app
 * loads); both learn the server's time from their first sync, then make polls offline with deadlines
 * read against it. Survived when the ahead device may set a deadline tomorrow (its own clock says
 * that is two days ago), the behind device is refused one an hour ago (its own clock says that is
 * days ahead), both polls land on the server once, and the dashboard's 'today' is the server's.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { LoginPage, newUser } from '../pages/login-page.ts';
import { syncStatus } from '../support/workspace.ts';
import { startFaultStack, type FaultStack } from './support/fault-stack.ts';

const DAY = 86_400_000;

let stack: FaultStack;
test.beforeAll(async () => {
  stack = await startFaultStack('clock');
});
test.afterAll(async () => stack?.dispose());

async function skewedDevice(browser: Browser, offsetMs: number) {
  const context = await browser.newContext({ baseURL: stack.url, timezoneId: 'UTC' });
  await context.clock.install({ time: Date.now() + offsetMs });
  return { context, page: await context.newPage() };
}

/** 'YYYY-MM-DDTHH:mm' of an instant, as a datetime-local field in UTC takes it. */
const localInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);

async function createPoll(page: Page, title: string, deadlineMs: number) {
  await page.getByRole('button', { name: 'Create Poll' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create Poll' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Option 1').fill('Yes');
  await dialog.getByLabel('Option 2').fill('No');
  await dialog.getByLabel('Deadline (optional)').fill(localInput(deadlineMs));
  await dialog.getByRole('button', { name: 'Create Poll' }).click();
  return dialog;
}

test('the device clock 3 days ahead on one device and 3 days behind on another, with polls made offline on both', async ({
  browser,
}) => {
  const user = newUser('skew');
  const ahead = await skewedDevice(browser, 3 * DAY);
  const login = new LoginPage(ahead.page);
  await login.open();
  await login.signUp(user);
  await expect(syncStatus(ahead.page)).toHaveText('Synced');
  const behind = await skewedDevice(browser, -3 * DAY);
  const other = new LoginPage(behind.page);
  await other.open();
  await other.signIn(user);
  await expect(syncStatus(behind.page)).toHaveText('Synced');

  // Both offline, each with a poll waiting.
  const title = (device: string) => `${device} ${randomUUID().slice(0, 6)}`;
  const aheadTitle = title('Ahead');
  const behindTitle = title('Behind');
  for (const device of [ahead, behind]) {
    await device.page.goto(`/Voting/${user.username}`);
    await expect(device.page.getByRole('heading', { name: 'Public Voting Board' })).toBeVisible();
    await device.context.setOffline(true);
  }
  const aheadDialog = await createPoll(ahead.page, aheadTitle, Date.now() + DAY);
  await expect(aheadDialog).toBeHidden();
  const behindDialog = await createPoll(behind.page, behindTitle, Date.now() - 60 * 60_000);
  await expect(behindDialog.getByText('The deadline cannot be earlier than now.')).toBeVisible();
  await behindDialog.getByLabel('Deadline (optional)').fill(localInput(Date.now() + 2 * DAY));
  await behindDialog.getByRole('button', { name: 'Create Poll' }).click();
  await expect(behindDialog).toBeHidden();

  for (const device of [ahead, behind]) {
    await device.context.setOffline(false);
    await expect(syncStatus(device.page)).toHaveText('Synced');
  }
  const rows = await stack.query<{ title: string; deadline: Date }>(
    'select title, deadline from public.voting_posts where title = any ($1) order by title',
    [[aheadTitle, behindTitle]],
  );
  expect(rows.map((row) => row.title)).toEqual([aheadTitle, behindTitle]);
  // Both devices show both polls open ('Ends …'), by the server's clock.
  for (const device of [ahead, behind]) {
    for (const poll of [aheadTitle, behindTitle]) {
      await expect(device.page.getByRole('article', { name: poll }).getByText(/^Ends /)).toBeVisible();
    }
  }
  await ahead.context.close();
  await behind.context.close();
});
