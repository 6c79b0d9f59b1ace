import { expect, test } from '@playwright/test';
import { LinksScreen } from './pages/links-screen.ts';
import { LoginPage, newUser } from './pages/login-page.ts';
import { confirmationLink, mailTo } from './pages/mailbox.ts';
import { toasts } from './pages/toasts.ts';

test('sharing: an invited viewer gets the mail, opens the directory (also offline), and loses it when removed', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = newUser('owner');
  const guest = newUser('guest');

  // The owner makes a directory with a link and invites the guest as a Viewer.
  await new LoginPage(page).open();
  await new LoginPage(page).signUp(owner);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${owner.username}$`));
  const links = new LinksScreen(page);
  await links.open(owner.username);
  await links.createDirectory('Team Reading');
  await links.openDirectory('Team Reading');
  await links.addLink('https://alpha.example.org', 'Alpha');
  await links.invite(guest.email);
  await expect(toasts(page).getByText(`Invitation sent to ${guest.email}!`)).toBeVisible();

  // The mail carries the absolute link to the directory.
  const mail = await mailTo(request, guest.email);
  expect(mail.subject).toBe('You have been invited to Team Reading on Linkboard');
  const address = /https?:\/\/\S+\/Links\/[^/\s]+\/dir\/[0-9a-f-]+/.exec(mail.body)?.[0];
  expect(address).toBe(page.url());

  // The guest signs up with the invited e-mail and opens the link from the mail.
  const guestContext = await browser.newContext();
  const guestPage = await guestContext.newPage();
  const guestLogin = new LoginPage(guestPage);
  await guestLogin.open();
  await guestLogin.signUp(guest);
  await expect(guestPage).toHaveURL(new RegExp(`/Dashboard/${guest.username}$`));
  // Until the guest confirms the address through the mailed link, the invitation does not apply:
  // anyone could have signed up with it.
  await guestPage.goto(address as string);
  await expect(guestPage.getByText('This directory is not available')).toBeVisible();
  await expect(guestPage.getByRole('region', { name: 'Confirm your e-mail address' })).toBeVisible();
  await guestPage.goto(await confirmationLink(request, guest.email));
  // The link lands on the dashboard, which says so once and drops the unconfirmed banner.
  await expect(guestPage).toHaveURL(new RegExp(`/Dashboard/${guest.username}$`));
  await expect(toasts(guestPage).getByText('Your e-mail address is confirmed.')).toBeVisible();
  await expect(guestPage.getByRole('region', { name: 'Confirm your e-mail address' })).toBeHidden();
  await guestPage.goto(address as string);
  const guestLinks = new LinksScreen(guestPage);
  await expect(guestPage.getByRole('heading', { name: 'Team Reading' })).toBeVisible();
  await expect(guestPage.getByRole('link', { name: 'Alpha' })).toHaveAttribute('href', 'https://alpha.example.org');
  // Read only: Members to look at, but no Add Link, Invite or Settings.
  await expect(guestPage.getByRole('button', { name: 'Members', exact: true })).toBeVisible();
  await expect(guestPage.getByRole('button', { name: 'Add Link', exact: true })).toHaveCount(0);
  await expect(guestPage.getByRole('button', { name: 'Invite', exact: true })).toHaveCount(0);
  await expect(guestPage.getByRole('button', { name: 'Settings', exact: true })).toHaveCount(0);
  const guestMembers = await guestLinks.openMembers();
  await expect(guestMembers.getByText('Only the owner can manage members.')).toBeVisible();
  await expect(guestMembers.getByRole('button', { name: `Remove ${guest.email}` })).toBeDisabled();
  await guestPage.keyboard.press('Escape');

  // In the guest's grid: the shared directory, without an edit button.
  await guestLinks.open(guest.username);
  await expect(guestLinks.card('Team Reading')).toContainText('1 link');
  await expect(guestPage.getByRole('button', { name: 'Edit Team Reading' })).toHaveCount(0);

  // Offline after one sync: the app shell from the service worker, the directory from IndexedDB.
  await expect(guestLinks.syncStatus()).toHaveText('Synced');
  await guestPage.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await guestPage.goto(address as string);
  await expect.poll(() => guestPage.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await guestContext.setOffline(true);
  await guestPage.reload();
  await expect(guestPage.getByRole('heading', { name: 'Team Reading' })).toBeVisible();
  await expect(guestPage.getByRole('link', { name: 'Alpha' })).toBeVisible();
  await expect(guestLinks.syncStatus()).toHaveText(/^Offline/);
  await guestContext.setOffline(false);

  // The owner sees the guest in Manage Members and removes them after confirming.
  const members = await links.openMembers();
  await expect(members.getByText(guest.email)).toBeVisible();
  await expect(members.getByLabel(`Role for ${guest.email}`)).toHaveValue('viewer');
  await members.getByRole('button', { name: `Remove ${guest.email}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Member' });
  await expect(confirm).toContainText(`Remove ${guest.email} from this directory? They will lose access.`);
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(members.getByText('No members yet. Use Invite to add collaborators.')).toBeVisible();
  await members.getByRole('button', { name: 'Close' }).click();
  await expect(links.syncStatus()).toHaveText('Synced');

  // The guest's next sync drops the directory.
  await guestPage.goto(address as string);
  await expect(guestPage.getByText('This directory is not available')).toBeVisible();
  await guestLinks.open(guest.username);
  await expect(guestLinks.card('Team Reading')).toHaveCount(0);
  await guestContext.close();

  // An invite made offline is queued, and its mail goes out once the invite reaches the server.
  const later = newUser('later');
  await page.context().setOffline(true);
  await links.invite(later.email);
  await expect(toasts(page).getByText(`Invitation sent to ${later.email}!`)).toBeVisible();
  await expect(links.syncStatus()).toHaveText('Offline — 1 change waiting');
  const waiting = await request.get(`/_mailbox/messages.json?to=${encodeURIComponent(later.email)}`);
  expect(await waiting.json()).toEqual([]);
  await page.context().setOffline(false);
  await expect(links.syncStatus()).toHaveText('Synced');
  expect((await mailTo(request, later.email)).body).toContain(address as string);
});
