import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { setTier } from './support/admin.ts';
import { newUser } from './pages/login-page.ts';
import { addLink, createDirectory, signUpAndSync, syncStatus } from './support/workspace.ts';

/** WCAG 2.1 A and AA rules, as axe-core checks them, on what the page shows now. */
async function axe(page: Page, theme: 'light' | 'dark') {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map((v) => ({
    theme,
    rule: v.id,
    impact: v.impact,
    targets: v.nodes.map((node) => node.target.join(' ')).slice(0, 5),
  }));
}

/**
 * The screen as it is now, in both themes: light, then the system switched to dark (a new user's
 * 'System' follows it, so the page must show the dark theme), then back. A screenshot of each dark
 * screen is kept with the test's results. The test-mode checkout and portal stand for the payment
 * provider's pages: light only.
 */
async function violations(page: Page, screen: string) {
  const info: TestInfo = test.info();
  const light = await axe(page, 'light');
  if (page.url().includes('/_checkout/')) return light;
  const html = page.locator('html');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: info.outputPath(`dark-${screen}.png`) });
  const dark = await axe(page, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  return [...light, ...dark];
}

// Every screen in both themes (violations above): the system's scheme decides, as it does for a new user ('System').
test.use({ colorScheme: 'light' });

test('the links workspace has no WCAG 2.1 AA violations axe can find', async ({ page, browser, request }) => {
  const user = newUser('a11y');
  const found: Record<string, unknown> = {};
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  found.landing = await violations(page, 'landing');
  await page.goto('/Login');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  found.login = await violations(page, 'login');

  await signUpAndSync(page, user);
  found.dashboard = await violations(page, 'dashboard');
  const dirId = await createDirectory(page, user.username, 'Reading');
  await addLink(page, 'https://example.org/a', 'First article');
  found.directoryGrid = await violations(page, 'directoryGrid');
  await page.getByRole('button', { name: 'List view' }).click();
  await expect(page.getByRole('columnheader', { name: 'Tags' })).toBeVisible();
  found.directoryList = await violations(page, 'directoryList');

  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog.getByText(/required/i).first()).toBeVisible();
  found.addLinkErrors = await violations(page, 'addLinkErrors');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByRole('dialog', { name: 'Invite to Directory' })).toBeVisible();
  found.invite = await violations(page, 'invite');
  await page.keyboard.press('Escape');

  await page.goto(`/Links/${user.username}`);
  await expect(page.getByRole('heading', { name: 'My Links' })).toBeVisible();
  found.directories = await violations(page, 'directories');
  await page.getByRole('button', { name: /Create New Directory/ }).click();
  await expect(page.getByRole('dialog', { name: 'Create Directory' })).toBeVisible();
  found.createDirectory = await violations(page, 'createDirectory');
  await page.keyboard.press('Escape');

  // A Pro owner's public directory behind a password, and what a visitor sees of it.
  await setTier(request, user, 'pro');
  await page.reload();
  await expect(syncStatus(page)).toHaveText('Synced');
  await page.getByRole('button', { name: 'Edit Reading' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Directory' });
  await edit.getByRole('switch', { name: 'Public directory' }).check();
  await edit.getByLabel('Password (optional)').fill('open sesame');
  found.editDirectory = await violations(page, 'editDirectory');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('button', { name: 'Open Reading' })).toContainText('Password Protected');
  await expect(syncStatus(page)).toHaveText('Synced');

  const visitor = await browser.newContext({ colorScheme: 'light' });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/share/dir/${dirId}`);
  const form = visitorPage.getByRole('form', { name: 'Directory password' });
  await form.getByLabel('Password').fill('wrong');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(form.getByRole('alert')).toHaveText('Wrong password.');
  found.passwordForm = await violations(visitorPage, 'passwordForm');
  await form.getByLabel('Password').fill('open sesame');
  await form.getByRole('button', { name: 'Open' }).click();
  await expect(visitorPage.getByRole('link', { name: 'First article' })).toBeVisible();
  found.publicDirectory = await violations(visitorPage, 'publicDirectory');
  await visitorPage.goto(`/PublicProfile?user=${user.username}`);
  await expect(visitorPage.getByText(`@${user.username}`)).toBeVisible();
  found.publicProfile = await violations(visitorPage, 'publicProfile');
  await visitorPage.goto(`/share/dir/${crypto.randomUUID()}`);
  await expect(visitorPage.getByText('This directory is not available')).toBeVisible();
  found.unavailableDirectory = await violations(visitorPage, 'unavailableDirectory');
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
  found.emptyCalendar = await violations(page, 'emptyCalendar');

  await page.getByRole('button', { name: 'Add Event or Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  await dialog.getByRole('button', { name: 'Add Event' }).click();
  await expect(dialog.getByText('Title is required.')).toBeVisible();
  found.dialogErrors = await violations(page, 'dialogErrors');
  await dialog.getByLabel('Title').fill('Water the plants');
  await dialog.getByRole('switch', { name: 'This is a task' }).click();
  await dialog.getByRole('button', { name: 'Add Task' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: "Today's Tasks" }).getByText('Water the plants')).toBeVisible();
  found.calendarWithTask = await violations(page, 'calendarWithTask');

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
  found.weekView = await violations(page, 'weekView');

  await page.goto(`/Upcoming/${user.username}`);
  await expect(page.getByText('No upcoming events')).toBeVisible();
  found.upcoming = await violations(page, 'upcoming');

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
  found.upgradeMonthly = await violations(page, 'upgradeMonthly');
  await page.getByRole('radio', { name: /Yearly/ }).click();
  found.upgradeYearly = await violations(page, 'upgradeYearly');

  await page.getByRole('article', { name: 'Team' }).getByRole('button', { name: 'Upgrade to Team' }).click();
  await expect(page).toHaveURL(/\/_checkout\/pay\//);
  found.checkout = await violations(page, 'checkout');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('region', { name: 'Your plan' })).toContainText('Team Plan');

  await page.goto(`/Profile/${user.username}`);
  await page.getByRole('button', { name: 'Manage or Downgrade Plan' }).click();
  await expect(page).toHaveURL(/\/_checkout\/portal\//);
  found.portal = await violations(page, 'portal');

  for (const [where, list] of Object.entries(found)) expect(list, where).toEqual([]);
});

test('polls, Profile, Add Link from another app, the public pages and a toast have no WCAG 2.1 AA violations axe can find', async ({
  page,
}) => {
  const user = newUser('a11ymore');
  const poll = `Lunch ${crypto.randomUUID().slice(0, 8)}`;
  const found: Record<string, unknown> = {};
  for (const [path, heading] of [
    ['/Features', 'Features'],
    ['/About', 'About'],
    ['/Contact', 'Contact'],
    ['/Privacy', 'Privacy'],
    ['/no-such-user', 'Profile Not Found'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
    found[path] = await violations(page, path.slice(1));
  }

  await signUpAndSync(page, user);
  await page.goto(`/Voting/${user.username}`);
  await expect(page.getByRole('heading', { name: 'Public Voting Board' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Poll' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Poll' });
  await dialog.getByLabel('Title').fill(poll);
  await dialog.getByLabel('Option 1').fill('Pizza');
  await dialog.getByRole('button', { name: 'Create Poll' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please provide at least 2 voting options');
  found.pollDialogErrors = await violations(page, 'pollDialogErrors');
  await dialog.getByLabel('Option 2').fill('Sushi');
  await dialog.getByRole('button', { name: 'Create Poll' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('article', { name: poll }).getByRole('button', { name: 'Pizza' }).click();
  await expect(syncStatus(page)).toHaveText('Synced');
  found.votingBoard = await violations(page, 'votingBoard');

  await page.goto(`/Profile/${user.username}`);
  await expect(page.getByRole('radiogroup', { name: 'Theme' })).toBeVisible();
  found.profile = await violations(page, 'profile');
  await page.getByRole('combobox', { name: 'Time zone' }).selectOption('Europe/Paris');
  await page.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Time zone saved.', { exact: true })).toBeVisible();
  found.toast = await violations(page, 'toast');

  await page.goto('/share-target?url=https%3A%2F%2Fexample.org%2Fshared&title=Shared%20page');
  await expect(page.getByRole('heading', { name: 'Add Link' })).toBeVisible();
  found.shareTarget = await violations(page, 'shareTarget');

  for (const [where, list] of Object.entries(found)) expect(list, where).toEqual([]);
});
