import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';
import { toasts } from './pages/toasts.ts';
import { pushAs } from './support/admin.ts';
import {
  addLink,
  createDirectory,
  signInElsewhere,
  signUpAndSync,
  storedLinkTitles,
  syncStatus,
} from './support/workspace.ts';

test('directories and links: create, search, switch views, edit, delete, and the Free limits', async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const user = newUser('links');
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await page.goto(`/Links/${user.username}`);
  await expect(page.getByRole('heading', { name: 'My Links' })).toBeVisible();
  await expect(page.getByText('Save and organize all your important links')).toBeVisible();

  // A directory.
  await page.getByRole('button', { name: /Create New Directory/ }).click();
  let dialog = page.getByRole('dialog', { name: 'Create Directory' });
  await dialog.getByRole('button', { name: 'Create Directory' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Name is required.');
  await dialog.getByLabel('Name').fill('Reading');
  await dialog.getByLabel('Description').fill('Articles for later');
  await dialog.getByRole('button', { name: 'green' }).click();
  await dialog.getByRole('button', { name: 'Create Directory' }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByRole('button', { name: 'Open Reading' });
  await expect(card).toContainText('0 links');
  await expect(card).toContainText('Private');

  // Free users own one directory: the limit is said before any form, and one Escape closes it.
  await page.getByRole('button', { name: /Create New Directory/ }).click();
  dialog = page.getByRole('dialog', { name: 'Create Directory' });
  await expect(dialog).toContainText('Upgrade to Pro to create more directories.');
  await expect(dialog.getByLabel('Name')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Search by name or description.
  await page.getByPlaceholder('Search your links...').fill('articles');
  await expect(card).toBeVisible();
  await page.getByPlaceholder('Search your links...').fill('nothing here');
  await expect(card).toBeHidden();
  await page.getByPlaceholder('Search your links...').fill('');

  // The selected directory.
  await card.click();
  await expect(page).toHaveURL(new RegExp(`/Links/${user.username}/dir/[0-9a-f-]+$`));
  await expect(page.getByRole('heading', { name: 'Reading' })).toBeVisible();
  await expect(page.getByText('Organize your reading links')).toBeVisible();
  const directoryUrl = page.url();
  await expect(page.getByText('No Links Yet')).toBeVisible();

  await addLink(page, 'example.com/alpha', 'Alpha');
  await addLink(page, 'https://beta.example.org', 'Beta');
  const cards = page.getByTestId('link-card');
  await expect(cards).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Alpha' })).toHaveAttribute('href', 'https://example.com/alpha');
  await expect(page.getByRole('link', { name: 'Alpha' })).toHaveAttribute('target', '_blank');

  // Nothing animates while the pointer rests on a button: a running transition keeps frames
  // ticking, and the frame that shows the next click would wait for the next tick.
  await page.getByRole('button', { name: 'Add Link', exact: true }).hover();
  expect(await page.evaluate(() => document.getAnimations().map((a) => a.constructor.name))).toEqual([]);

  // Search over title, url and tags.
  const search = page.getByPlaceholder('Search your links...');
  await search.fill('beta.example');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Beta');
  await search.fill('');

  // List view.
  await page.getByRole('button', { name: 'List view' }).click();
  const table = page.getByRole('table', { name: 'Links' });
  for (const column of ['Title', 'URL', 'Tags', 'Actions']) {
    await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
  }
  await expect(table.getByRole('row')).toHaveCount(3);

  // Edit.
  await page.getByRole('button', { name: 'Actions for Alpha' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit Link' });
  await dialog.getByLabel('Title').fill('Alpha renamed');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(table.getByRole('link', { name: 'Alpha renamed' })).toBeVisible();

  // Delete, from the keyboard: the menu opens on Enter with its first item focused, Escape gives
  // the focus back to its button, ArrowDown opens it again.
  const betaActions = page.getByRole('button', { name: 'Actions for Beta' });
  // The pointer out of the way: a menu item under it takes the focus when the menu opens there.
  await page.mouse.move(0, 0);
  await betaActions.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(betaActions).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Share' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeFocused();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete Link' });
  await expect(confirm).toContainText('Are you sure you want to delete "Beta"? This action cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(table.getByRole('link', { name: 'Beta' })).toHaveCount(0);
  await expect(table.getByRole('row')).toHaveCount(2);
  // The screen shows the delete before IndexedDB has it: the reload waits until it is stored.
  await expect.poll(async () => (await storedLinkTitles(page)).includes('Beta')).toBe(false);

  // A reload opens the same directory in the workspace.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Reading' })).toBeVisible();
  await expect(page.getByTestId('link-card')).toHaveCount(1);

  // Free: 30 links, the badge, the warning above 25, then the refusal.
  await expect(page.getByTestId('link-limit-badge')).toHaveText('1/30 links');
  for (let n = 2; n <= 30; n++) await addLink(page, `https://site${n}.example`, `Site ${n}`);
  await expect(page.getByTestId('link-limit-badge')).toHaveText('30/30 links');
  await expect(page.getByText("You're using 30/30 links on the free plan")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Link', exact: true })).toBeDisabled();
  const full = page.getByRole('status').filter({ hasText: 'Upgrade to Pro to save more links.' });
  await expect(full.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', `/Upgrade/${user.username}`);

  // Back to the grid, which counts the links.
  await page.getByRole('button', { name: 'Back to directories' }).click();
  await expect(page).toHaveURL(new RegExp(`/Links/${user.username}$`));
  await expect(page.getByRole('button', { name: 'Open Reading' })).toContainText('30 links');

  // A visitor on the private directory's address is refused.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(directoryUrl);
  await expect(visitorPage.getByRole('heading', { name: 'This directory is not available' })).toBeVisible();
  await visitor.close();
});

test("a Free user's 31st link, added on a device that was offline, is refused with the product's message", async ({
  page,
  browser,
  request,
}) => {
  const user = newUser('limit');
  await signUpAndSync(page, user);
  const dirId = await createDirectory(page, user.username, 'Nearly full');
  const directoryPath = `/Links/${user.username}/dir/${dirId}`;
  // 29 links pushed through sync_push, as another of the user's devices would push them.
  await pushAs(
    request,
    user,
    Array.from({ length: 29 }, (_, i) => ({
      name: 'link.create',
      args: { id: randomUUID(), directory_id: dirId, url: `https://seed${i}.example`, title: `Seed ${i}` },
    })),
  );
  await page.reload();
  const badge = page.getByTestId('link-limit-badge');
  await expect(badge).toHaveText('29/30 links');

  const { context: away, page: awayPage } = await signInElsewhere(browser, user);
  await awayPage.goto(directoryPath);
  const awayBadge = awayPage.getByTestId('link-limit-badge');
  await expect(awayBadge).toHaveText('29/30 links');
  await expect(syncStatus(awayPage)).toHaveText('Synced');
  await away.setOffline(true);
  await addLink(awayPage, 'https://train.example/read', 'From the train');
  await expect(awayBadge).toHaveText('30/30 links');
  await expect(syncStatus(awayPage)).toHaveText('Offline — 1 change waiting');

  // Meanwhile the 30th link reaches the server from the first device.
  await addLink(page, 'https://desk.example/read', 'At the desk');
  await expect(badge).toHaveText('30/30 links');
  await expect(syncStatus(page)).toHaveText('Synced');

  // Back online, the away device's link is the 31st: refused, said, and removed.
  await away.setOffline(false);
  const notifications = toasts(awayPage);
  await expect(notifications.getByText('Upgrade to Pro to save more links.')).toBeVisible({ timeout: 40_000 });
  await expect(awayPage.getByRole('link', { name: 'From the train' })).toHaveCount(0);
  await expect(awayPage.getByRole('link', { name: 'At the desk' })).toBeVisible();
  await expect(awayBadge).toHaveText('30/30 links');
  await expect(syncStatus(awayPage)).toHaveText('Synced');
  await away.close();

  await page.reload();
  await expect(badge).toHaveText('30/30 links');
  await expect(page.getByRole('link', { name: 'From the train' })).toHaveCount(0);
});

test('a link title pasted with a NUL character or half of an emoji is refused at the field, and nothing is queued', async ({
  page,
}) => {
  const user = newUser('text');
  await signUpAndSync(page, user);
  await createDirectory(page, user.username, 'Pasted');
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill('example.com/pasted');
  for (const pasted of ['Pasted\u0000title', 'Cut emoji \ud83d']) {
    // What a paste leaves in the field (the page's own strings keep a NUL and a lone surrogate).
    await dialog.getByLabel('Title').evaluate((input: HTMLInputElement, value) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, pasted);
    await dialog.getByRole('button', { name: 'Add Link' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'A character in Title cannot be saved (a null character or half of an emoji). Remove it and try again.',
    );
  }
  await expect(syncStatus(page)).toHaveText('Synced');
  await dialog.getByLabel('Title').fill('Pasted title');
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: 'Pasted title' })).toBeVisible();
  await expect(syncStatus(page)).toHaveText('Synced');
});
