/**
 * Team polls in the real browser: a Team owner creates a poll in a shared directory,
 * a member sees it and votes, and once removed no longer sees it; the upsell where the owner is
 * not on Team.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { confirmationLink } from './pages/mailbox.ts';
import { pushAs, setTier } from './support/admin.ts';
import { signInElsewhere, signUpAndSync, syncStatus } from './support/workspace.ts';

async function openTeamPolls(page: Page, username: string, dirId: string) {
  await page.goto(`/Links/${username}/dir/${dirId}`);
  await page.getByRole('tab', { name: 'Team Polls' }).click();
}

test("a Team owner's poll reaches a member, who votes; a removed member no longer sees it", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = newUser('teamowner');
  const member = newUser('teammate');
  await signUpAndSync(page, owner);
  await setTier(request, owner, 'team');
  const dirId = randomUUID();
  const membershipId = randomUUID();
  await pushAs(request, owner, [
    { name: 'directory.create', args: { id: dirId, name: 'Roadmap' } },
    {
      name: 'member.invite',
      args: { id: membershipId, directory_id: dirId, user_email: member.email, role: 'editor' },
    },
  ]);

  // The owner creates the first poll from the empty state.
  await openTeamPolls(page, owner.username, dirId);
  await expect(page.getByText('No team polls yet')).toBeVisible();
  await page.getByRole('button', { name: 'Create First Poll' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Team Poll' });
  await dialog.getByLabel('Title').fill('Next sprint goal');
  await dialog.getByLabel('Option 1').fill('Search');
  await dialog.getByLabel('Option 2').fill('Offline maps');
  await dialog.getByRole('button', { name: 'Create Team Poll' }).click();
  await expect(dialog).toBeHidden();
  const ownersPoll = page.getByRole('article', { name: 'Next sprint goal' });
  await expect(ownersPoll.getByRole('button', { name: 'Search' })).toBeVisible();
  await expect(syncStatus(page)).toHaveText('Synced');

  // The member signs up with the invited address, confirms it, and sees the poll.
  const mate = await browser.newContext();
  const matePage = await mate.newPage();
  await signUpAndSync(matePage, member);
  await matePage.goto(await confirmationLink(request, member.email));
  await expect(syncStatus(matePage)).toHaveText('Synced');
  await openTeamPolls(matePage, member.username, dirId);
  const matesPoll = matePage.getByRole('article', { name: 'Next sprint goal' });
  await matesPoll.getByRole('button', { name: 'Offline maps' }).click();
  await expect(matesPoll.getByRole('listitem').filter({ hasText: 'Your vote' })).toContainText('100.0% · 1 vote');
  await expect(syncStatus(matePage)).toHaveText('Synced');

  // The owner removes the member; the member's next sync drops the directory and its polls.
  await pushAs(request, owner, [{ name: 'member.remove', args: { id: membershipId } }]);
  await matePage.goto(`/Voting/${member.username}`);
  await expect(syncStatus(matePage)).toHaveText('Synced');
  await matePage.goto(`/Links/${member.username}/dir/${dirId}`);
  await expect(matePage.getByText('This directory is not available')).toBeVisible();
  // Nothing of the directory's polls stays on the device (public polls of other tests may).
  const stored = await matePage.evaluate(async (directoryId) => {
    const name = (await indexedDB.databases())
      .map((db) => db.name ?? '')
      .find((n) => n.startsWith('linkboard-') && n !== 'linkboard-auth');
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open(name!);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const store = open.result.transaction('voting_posts').objectStore('voting_posts');
        const count = store.index('directory_id').count(IDBKeyRange.only(directoryId));
        count.onsuccess = () => resolve(count.result);
      };
    });
  }, dirId);
  expect(stored).toBe(0);
  await mate.close();

  // Where the owner is not on Team, the tab offers the upgrade instead.
  const { context: other, page: otherPage } = await signInElsewhere(browser, member);
  const ownDir = randomUUID();
  await pushAs(request, member, [{ name: 'directory.create', args: { id: ownDir, name: 'Mine' } }]);
  await openTeamPolls(otherPage, member.username, ownDir);
  await expect(otherPage.getByText('Unlock Team Polls')).toBeVisible();
  await expect(otherPage.getByRole('button', { name: 'Upgrade to Team Plan' })).toBeVisible();
  await other.close();
});
