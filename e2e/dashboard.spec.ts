/**
 * The dashboard in the real browser: its numbers match what was created on
 * another device and what was done here, online and then offline after a reload, with the Free
 * plan's ad slot and upgrade banner, which a Pro user does not see. The browser runs in
 * Europe/Berlin, which sign-up records as the user's zone.
 */
import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { newUser } from './pages/login-page.ts';
import { pushAs, setTier } from './support/admin.ts';
import { controlledByServiceWorker, signUpAndSync, syncStatus } from './support/workspace.ts';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

/** An instant `minutes` from now, as the server stores it. */
const fromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
/** 09:00 Berlin on today + `days`, as an instant. */
const nineOn = (days: number) =>
  Temporal.Now.zonedDateTimeISO(ZONE).add({ days }).with({ hour: 9, minute: 0, second: 0 }).toInstant().toString();

const stat = (page: Page, label: string) =>
  page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
const focus = (page: Page) => page.getByRole('region', { name: "Today's Focus" });
const banner = (page: Page) => page.getByRole('region', { name: 'Upgrade' });
const ad = (page: Page) => page.getByRole('complementary', { name: 'Advertisement' });

async function expectStats(page: Page, links: number, events: number, tasksDone: number, polls: number) {
  await expect(stat(page, 'Saved Links')).toHaveText(String(links));
  await expect(stat(page, 'Calendar Events')).toHaveText(String(events));
  await expect(stat(page, 'Tasks Done')).toHaveText(String(tasksDone));
  await expect(stat(page, 'Polls This Month')).toHaveText(String(polls));
}

test("the dashboard counts what was created, online and offline, with the Free plan's ad and banner", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const user = newUser('dash');
  await signUpAndSync(page, user);
  await expect(page).toHaveTitle('Dashboard — Linkboard');
  await expect(page.getByRole('heading', { name: 'Welcome back, there!' })).toBeVisible();
  await expectStats(page, 0, 0, 0, 0);
  await expect(focus(page).getByText('Nothing scheduled for today')).toBeVisible();
  await expect(ad(page)).toBeVisible();
  await expect(banner(page)).toBeHidden();

  // Another device adds a directory with 22 links (above 70 % of 30), two events, three tasks
  // (one completed) and a poll.
  const dirId = randomUUID();
  const done = randomUUID();
  await pushAs(request, user, [
    { name: 'directory.create', args: { id: dirId, name: 'Reading' } },
    ...Array.from({ length: 22 }, (_, i) => ({
      name: 'link.create',
      args: { id: randomUUID(), directory_id: dirId, url: `https://read${i}.example`, title: `Read ${i}` },
    })),
    {
      name: 'event.create',
      args: { id: randomUUID(), title: 'Planning', starts_at: fromNow(-1), ends_at: fromNow(180), is_task: false },
    },
    {
      name: 'event.create',
      args: { id: randomUUID(), title: 'Offsite', starts_at: nineOn(2), ends_at: nineOn(3), is_task: false },
    },
    {
      name: 'event.create',
      args: { id: randomUUID(), title: 'Pay rent', starts_at: nineOn(-1), ends_at: nineOn(-1), is_task: true },
    },
    {
      name: 'event.create',
      args: { id: randomUUID(), title: 'Buy milk', starts_at: null, ends_at: null, is_task: true },
    },
    { name: 'event.create', args: { id: done, title: 'File taxes', starts_at: null, ends_at: null, is_task: true } },
    { name: 'task.set_completed', args: { id: done, value: true } },
    { name: 'poll.create', args: { id: randomUUID(), title: 'Lunch?', options: ['Pizza', 'Salad'] } },
  ]);
  await page.reload();
  await expectStats(page, 22, 2, 1, 1);
  await expect(focus(page).getByRole('heading', { name: 'Events' })).toBeVisible();
  await expect(focus(page).getByText('Planning')).toBeVisible();
  await expect(focus(page).getByText('Offsite')).toBeHidden();
  await expect(focus(page).getByRole('heading', { name: 'Overdue' })).toBeVisible();
  await expect(focus(page).getByText('Pay rent')).toBeVisible();
  await expect(focus(page).getByRole('heading', { name: 'Tasks' })).toBeVisible();
  await expect(focus(page).getByText('Buy milk')).toBeVisible();
  await expect(banner(page)).toContainText('22/30 links');
  // Everything a Free user can see here, banner and ad included, passes axe's WCAG 2.1 AA rules.
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);

  // Completing a task on the calendar counts here at once.
  await page.getByRole('button', { name: 'Quick Add' }).click();
  await page.getByRole('menuitem', { name: 'Create Event' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Event or Task' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page
    .getByRole('region', { name: "Today's Tasks" })
    .getByRole('checkbox', { name: 'Complete Buy milk' })
    .click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expectStats(page, 22, 2, 2, 1);
  await expect(focus(page).getByText('Buy milk')).toBeHidden();
  await expect(focus(page).getByRole('heading', { name: 'Tasks' })).toBeHidden();

  // The banner goes for the session.
  await banner(page).getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner(page)).toBeHidden();
  await expect(syncStatus(page)).toHaveText('Synced');

  // Offline, a reload served by the service worker shows the same numbers from IndexedDB.
  await controlledByServiceWorker(page);
  await context.setOffline(true);
  await page.reload();
  await expect(syncStatus(page)).toHaveText(/^Offline/);
  await expectStats(page, 22, 2, 2, 1);
  await expect(focus(page).getByText('Planning')).toBeVisible();
  await expect(focus(page).getByText('Pay rent')).toBeVisible();
  await expect(ad(page)).toBeVisible();
  await expect(banner(page)).toBeHidden();
  await context.setOffline(false);
});

test('a Pro user sees no ad slot and no upgrade banner', async ({ page, request }) => {
  const user = newUser('dashpro');
  await signUpAndSync(page, user);
  const dirId = randomUUID();
  await pushAs(request, user, [
    { name: 'directory.create', args: { id: dirId, name: 'Reading' } },
    ...Array.from({ length: 25 }, (_, i) => ({
      name: 'link.create',
      args: { id: randomUUID(), directory_id: dirId, url: `https://read${i}.example`, title: `Read ${i}` },
    })),
  ]);
  await setTier(request, user, 'pro');
  await page.reload();
  await expect(stat(page, 'Saved Links')).toHaveText('25');
  await expect(page.getByText('Pro Plan')).toBeVisible();
  await expect(ad(page)).toBeHidden();
  await expect(banner(page)).toBeHidden();
});
