import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { setTier } from './support/admin.ts';
import { newUser } from './pages/login-page.ts';
import { addLink, createDirectory, signUpAndSync, syncStatus } from './support/workspace.ts';

/** WCAG 2.1 A and AA rules, as axe-core checks them, on what the page shows now. */
async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    targets: v.nodes.map((node) => node.target.join(' ')).slice(0, 5),
  }));
}

test('the links workspace has no WCAG 2.1 AA violations axe can find', async ({ page, browser, request }) => {
  const user = newUser('a11y');
  const found: Record<string, unknown> = {};
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  found.landing = await violations(page);
  await page.goto('/Login');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  found.login = await violations(page);

  await signUpAndSync(page, user);
  found.dashboard = await violations(page);
  const dirId = await createDirectory(page, user.username, 'Reading');
  await addLink(page, 'https://example.org/a', 'First article');
  found.directoryGrid = await violations(page);
  await page.getByRole('button', { name: 'List view' }).click();
  await expect(page.getByRole('columnheader', { name: 'Tags' })).toBeVisible();
  found.directoryList = await violations(page);

  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog.getByText(/required/i).first()).toBeVisible();
  found.addLinkErrors = await violations(page);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByRole('dialog', { name: 'Invite to Directory' })).toBeVisible();
  found.invite = await violations(page);
  await page.keyboard.press('Escape');

  await page.goto(`/Links/${user.username}`);
  await expect(page.getByRole('heading', { name: 'My Links' })).toBeVisible();
  found.directories = await violations(page);
  await page.getByRole('button', { name: /Create New Directory/ }).click();
  await expect(page.getByRole('dialog', { name: 'Create Directory' })).toBeVisible();
  found.createDirectory = await violations(page);
  await page.keyboard.press('Escape');

  // A Pro owner's public directory behind a password, and what a visitor sees of it.
  await setTier(request, user, 'pro');
  await page.reload();
  await expect(syncStatus(page)).toHaveText('Synced');
  await page.getByRole('button', { name: 'Edit Reading' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Directory' });
  await edit.getByRole('switch', { name: 'Public directory' }).check();
  await edit.getByLabel('Password (optional)').fill('open sesame');
  found.editDirectory = await violations(page);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('button', { name: 'Open Reading' })).toContainText('Password Protected');
  await expect(syncStatus(page)).toHaveText('Synced');

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/share/dir/${dirId}`);
  const form = visitorPage.getByRole('form', { name: 'Directory password' });
  await form.getByLabel('Password').fill('wrong');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(form.getByRole('alert')).toHaveText('Wrong password.');
  found.passwordForm = await violations(visitorPage);
  await form.getByLabel('Password').fill('open sesame');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(visitorPage.getByRole('link', { name: 'First article' })).toBeVisible();
  found.publicDirectory = await violations(visitorPage);
  await visitorPage.goto(`/PublicProfile?user=${user.username}`);
  await expect(visitorPage.getByText(`@${user.username}`)).toBeVisible();
  found.publicProfile = await violations(visitorPage);
  await visitorPage.goto(`/share/dir/${crypto.randomUUID()}`);
  await expect(visitorPage.getByText('This directory is not available')).toBeVisible();
  found.unavailableDirectory = await violations(visitorPage);
  await visitor.close();

  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((key) => [key, []])));
});

test('the calendar, its dialog and Upcoming have no WCAG 2.1 AA violations axe can find', async ({ page, request }) => {
  const user = newUser('a11ycal');
  const found: Record<string, unknown> = {};
  await signUpAndSync(page, user);
  await setTier(request, user, 'pro');
  await page.goto(`/Calendar/${user.username}`);
  await expect(page.getByRole('heading', { name: 'My Calendar & Tasks' })).toBeVisible();
  await expect(syncStatus(page)).toHaveText('Synced');
  found.emptyCalendar = await violations(page);

  await page.getByRole('button', { name: 'Add Event or Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  await dialog.getByRole('button', { name: 'Add Event' }).click();
  await expect(dialog.getByText('Title is required.')).toBeVisible();
  found.dialogErrors = await violations(page);
  await dialog.getByLabel('Title').fill('Water the plants');
  await dialog.getByRole('switch', { name: 'This is a task' }).click();
  await dialog.getByRole('button', { name: 'Add Task' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: "Today's Tasks" }).getByText('Water the plants')).toBeVisible();
  found.calendarWithTask = await violations(page);

  // The grid is keyboard reachable: one tab stop, arrows move between days.
  const selected = page.locator('[role="gridcell"][aria-selected="true"] button');
  await selected.focus();
  const before = await selected.getAttribute('data-day');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('[role="gridcell"][aria-selected="true"] button')).not.toHaveAttribute(
    'data-day',
    before ?? '',
  );
  await expect(page.locator('[role="gridcell"][aria-selected="true"] button')).toBeFocused();
  await page.getByRole('button', { name: 'Week' }).click();
  found.weekView = await violations(page);

  await page.goto(`/Upcoming/${user.username}`);
  await expect(page.getByText('No upcoming events')).toBeVisible();
  found.upcoming = await violations(page);

  for (const [where, list] of Object.entries(found)) expect(list, where).toEqual([]);
});

test('the Upgrade page, the test-mode checkout and the portal have no WCAG 2.1 AA violations axe can find', async ({
  page,
}) => {
  const user = newUser('a11ybill');
  const found: Record<string, unknown> = {};
  await signUpAndSync(page, user);
  await page.goto(`/Upgrade/${user.username}`);
  await expect(page.getByRole('article', { name: 'Free' })).toContainText('Current plan');
  found.upgradeMonthly = await violations(page);
  await page.getByRole('radio', { name: /Yearly/ }).click();
  found.upgradeYearly = await violations(page);

  await page.getByRole('article', { name: 'Team' }).getByRole('button', { name: 'Upgrade to Team' }).click();
  await expect(page).toHaveURL(/\/_checkout\/pay\//);
  found.checkout = await violations(page);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('region', { name: 'Your plan' })).toContainText('Team Plan');

  await page.goto(`/Profile/${user.username}`);
  await page.getByRole('button', { name: 'Manage or Downgrade Plan' }).click();
  await expect(page).toHaveURL(/\/_checkout\/portal\//);
  found.portal = await violations(page);

  for (const [where, list] of Object.entries(found)) expect(list, where).toEqual([]);
});
