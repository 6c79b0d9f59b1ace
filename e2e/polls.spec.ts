/**
 * The Public Voting Board in the real browser: a Free user creates a poll; another user
 * votes offline, and once back online both see the one vote; a poll past its deadline shows
 * 'Ended' and its results.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { pushAs } from './support/admin.ts';
import { controlledByServiceWorker, signUpAndSync, syncStatus } from './support/workspace.ts';

/** A stat card's value. The board is shared by every user of the stack, so tests compare values, never absolutes. */
const stat = (page: Page, label: string) =>
  page
    .getByRole('region', { name: 'Poll statistics' })
    .getByText(label, { exact: true })
    .locator('xpath=following-sibling::p');
const statValue = async (page: Page, label: string) => Number(await stat(page, label).textContent());

async function openBoard(page: Page, username: string) {
  await page.goto(`/Voting/${username}`);
  await expect(page.getByRole('heading', { name: 'Public Voting Board' })).toBeVisible();
}

test('a Free user creates a poll; another votes offline, and both see the one vote once synced', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const author = newUser('pollauthor');
  await signUpAndSync(page, author);
  await openBoard(page, author.username);
  await expect(
    page.getByText(
      'Free users can create up to 5 polls per month. Upgrade to Pro for unlimited polls and watermark removal.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Advertisement' })).toBeVisible();

  // The dialog checks the options inline before anything is sent.
  const title = `Lunch ${randomUUID().slice(0, 8)}`;
  await page.getByRole('button', { name: 'Create Poll' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Poll' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Option 1').fill('Pizza');
  await dialog.getByRole('button', { name: 'Create Poll' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please provide at least 2 voting options');
  await dialog.getByLabel('Option 2').fill('Sushi');
  await dialog.getByRole('button', { name: 'Create Poll' }).click();
  await expect(dialog).toBeHidden();
  const mine = page.getByRole('article', { name: title });
  await expect(mine.getByRole('button', { name: 'Pizza' })).toBeVisible();
  await expect(mine.getByText('Powered by Linkboard')).toBeVisible();
  await expect(syncStatus(page)).toHaveText('Synced');
  const totalBefore = await statValue(page, 'Total Votes');

  // Another user, in another browser, votes while offline.
  const elsewhere = await browser.newContext();
  const phone = await elsewhere.newPage();
  const voter = newUser('pollvoter');
  await signUpAndSync(phone, voter);
  await controlledByServiceWorker(phone);
  await openBoard(phone, voter.username);
  const theirs = phone.getByRole('article', { name: title });
  await expect(theirs.getByRole('button', { name: 'Pizza' })).toBeVisible();
  await elsewhere.setOffline(true);
  await expect(syncStatus(phone)).toHaveText(/^Offline/);
  await theirs.getByRole('button', { name: 'Pizza' }).click();
  // At once, from the local database: the choice and provisional results.
  await expect(theirs.getByRole('listitem').filter({ hasText: 'Your vote' })).toContainText('Pizza');
  await expect(theirs.getByText('100.0% · 1 vote')).toBeVisible();
  await expect(theirs.getByRole('button')).toHaveCount(0);
  await expect(syncStatus(phone)).toHaveText('Offline — 1 change waiting');

  await elsewhere.setOffline(false);
  await expect(syncStatus(phone)).toHaveText('Synced', { timeout: 20_000 });
  await phone.reload();
  await expect(theirs.getByText('100.0% · 1 vote')).toBeVisible();
  await expect(theirs.getByText('0.0% · 0 votes')).toBeVisible();
  await expect(stat(phone, 'Your Votes')).toHaveText('1');

  // The author's board pulls the vote: one vote in all (the author has not voted, so the
  // options stay buttons: results show after voting or the deadline, docs/product.md, Polls).
  await page.reload();
  await expect(mine.getByText('1 vote', { exact: true })).toBeVisible();
  await expect(stat(page, 'Total Votes')).toHaveText(String(totalBefore + 1));
  await expect(stat(page, 'Your Votes')).toHaveText('0');
  await mine.getByRole('button', { name: 'Sushi' }).click();
  await expect(mine.getByText('50.0% · 1 vote')).toHaveCount(2);
  await elsewhere.close();
});

test("a poll past its deadline shows 'Ended' and its results, and takes no votes", async ({ page, request }) => {
  test.setTimeout(90_000);
  const user = newUser('pollend');
  await signUpAndSync(page, user);
  const voter = newUser('pollendvoter');
  const other = await page.context().browser()!.newContext();
  await signUpAndSync(await other.newPage(), voter);
  await other.close();

  const id = randomUUID();
  const title = `Quick ${id.slice(0, 8)}`;
  const deadline = new Date(Date.now() + 12_000);
  await pushAs(request, user, [
    { name: 'poll.create', args: { id, title, options: ['Yes', 'No'], deadline: deadline.toISOString() } },
  ]);
  await pushAs(request, voter, [{ name: 'poll.vote', args: { id: randomUUID(), post_id: id, option_index: 0 } }]);

  await openBoard(page, user.username);
  const poll = page.getByRole('article', { name: title });
  await expect(poll.getByRole('button', { name: 'Yes' })).toBeVisible();
  await expect(poll.getByText(/^Ends /)).toBeVisible();
  const activeBefore = await statValue(page, 'Active Polls');

  // The card turns when the deadline passes, without a reload.
  await expect(poll.getByText(/^Ended /)).toBeVisible({ timeout: 30_000 });
  await expect(poll.getByRole('button')).toHaveCount(0);
  await expect(poll.getByRole('listitem').filter({ hasText: 'Yes' })).toContainText('100.0% · 1 vote');
  await expect(poll.getByRole('listitem').filter({ hasText: 'No' })).toContainText('0.0% · 0 votes');
  await expect(stat(page, 'Active Polls')).toHaveText(String(activeBefore - 1));
});
