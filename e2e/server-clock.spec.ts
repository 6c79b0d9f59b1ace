/**
 * A device whose clock is days off counts by the server's time (docs/architecture.md, The server's
 * clock): the sync answers say what the server's clock reads, and 'today', overdue and a poll's
 * deadline follow it. The page's clock is Playwright's, set 3 days ahead or behind before the app loads.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Locator } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { pushAs } from './support/admin.ts';
import { signUpAndSync, syncStatus } from './support/workspace.ts';

const DAY = 86_400_000;

/** A zone where it is about noon now, so 'today' is the same day an hour either side. */
function noonZone(): string {
  const hoursFromNoon = Math.round(12 - new Date().getUTCHours());
  const shift = ((hoursFromNoon + 11 + 24) % 24) - 11; // -11 … +12
  // Etc/GMT zones count the other way: Etc/GMT-3 is UTC+3.
  return shift === 0 ? 'UTC' : `Etc/GMT${shift > 0 ? '-' : '+'}${Math.abs(shift)}`;
}

/** A group of Today's Focus (Events, Overdue, Tasks), by its heading. */
const group = (focus: Locator, title: string) =>
  focus
    .locator('div')
    .filter({ has: focus.page().getByRole('heading', { name: title, exact: true }) })
    .last();

async function deviceOff(browser: Browser, offsetMs: number) {
  const context = await browser.newContext({ timezoneId: noonZone() });
  await context.clock.install({ time: Date.now() + offsetMs });
  return { context, page: await context.newPage() };
}

test('a device 3 days ahead: a task due in half an hour is today, not overdue; a poll open for a day takes a vote', async ({
  browser,
  request,
}) => {
  const { context, page } = await deviceOff(browser, 3 * DAY);
  const user = newUser('ahead');
  await signUpAndSync(page, user);
  const due = new Date(Date.now() + 30 * 60_000).toISOString();
  const pollId = randomUUID();
  await pushAs(request, user, [
    {
      name: 'event.create',
      args: { id: randomUUID(), title: 'Pay the plumber', starts_at: due, ends_at: due, is_task: true },
    },
    {
      name: 'poll.create',
      args: {
        id: pollId,
        title: 'Lunch place',
        options: ['Ramen', 'Tacos'],
        deadline: new Date(Date.now() + DAY).toISOString(),
      },
    },
  ]);

  await page.goto(`/Dashboard/${user.username}`);
  await expect(syncStatus(page)).toHaveText('Synced');
  const focus = page.getByRole('region', { name: "Today's Focus" });
  await expect(group(focus, 'Tasks').getByText('Pay the plumber')).toBeVisible();
  await expect(focus.getByRole('heading', { name: 'Overdue' })).toHaveCount(0);

  // The poll is open by the server's clock (the device's says its deadline passed two days ago).
  await page.goto(`/Voting/${user.username}`);
  const poll = page.getByRole('article', { name: 'Lunch place' });
  await expect(poll.getByText(/^Ends /)).toBeVisible();
  await poll.getByRole('button', { name: 'Tacos' }).click();
  await expect(syncStatus(page)).toHaveText('Synced');
  await expect(poll.getByRole('listitem').filter({ hasText: 'Tacos' })).toContainText('100.0% · 1 vote');
  await context.close();
});

test('a device 3 days behind: a task due yesterday is overdue; a poll ends at its deadline', async ({
  browser,
  request,
}) => {
  const { context, page } = await deviceOff(browser, -3 * DAY);
  const user = newUser('behind');
  await signUpAndSync(page, user);
  const due = new Date(Date.now() - DAY).toISOString();
  await pushAs(request, user, [
    {
      name: 'event.create',
      args: { id: randomUUID(), title: 'Water the plants', starts_at: due, ends_at: due, is_task: true },
    },
    {
      name: 'poll.create',
      args: {
        id: randomUUID(),
        title: 'Quick call',
        options: ['Yes', 'No'],
        deadline: new Date(Date.now() + 15_000).toISOString(),
      },
    },
  ]);

  await page.goto(`/Dashboard/${user.username}`);
  await expect(syncStatus(page)).toHaveText('Synced');
  const focus = page.getByRole('region', { name: "Today's Focus" });
  await expect(group(focus, 'Overdue').getByText('Water the plants')).toBeVisible();

  // The device's clock says three days remain; the card ends with the server's deadline.
  await page.goto(`/Voting/${user.username}`);
  const poll = page.getByRole('article', { name: 'Quick call' });
  await expect(poll.getByText(/^Ended /)).toBeVisible({ timeout: 30_000 });
  await expect(poll.getByRole('button')).toHaveCount(0);
  await context.close();
});
