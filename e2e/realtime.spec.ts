import { expect, test, type Page } from '@playwright/test';
import { LinksScreen } from './pages/links-screen.ts';
import { LoginPage, newUser } from './pages/login-page.ts';
import { confirmationLink } from './pages/mailbox.ts';
import { toasts } from './pages/toasts.ts';

/**
 * Resolves when the page's poke stream (GET /sync/v1/poke) is answered, so the server is listening
 * before the change is made; after 10 s it resolves anyway and the assertion on the screen fails.
 */
const pokeStreamOpen = (page: Page) =>
  page
    .waitForResponse((response) => response.url().includes('/sync/v1/poke') && response.status() === 200, {
      timeout: 10_000,
    })
    .catch(() => undefined);

test('realtime: a link the owner adds shows on a member’s open directory well before the 30 s poll', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const owner = newUser('owner');
  const member = newUser('member');

  // The owner makes a directory and invites the member.
  const ownerLogin = new LoginPage(page);
  await ownerLogin.open();
  await ownerLogin.signUp(owner);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${owner.username}$`));
  const links = new LinksScreen(page);
  await links.open(owner.username);
  await links.createDirectory('Live Board');
  await links.openDirectory('Live Board');
  await links.addLink('https://first.example.org', 'First');
  await links.invite(member.email);
  await expect(toasts(page).getByText(`Invitation sent to ${member.email}!`)).toBeVisible();
  const address = page.url();

  // The member, in another browser context, signs up, confirms the address and opens the directory.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  const memberLogin = new LoginPage(memberPage);
  await memberLogin.open();
  await memberLogin.signUp(member);
  await expect(memberPage).toHaveURL(new RegExp(`/Dashboard/${member.username}$`));
  await memberPage.goto(await confirmationLink(request, member.email));
  await expect(toasts(memberPage).getByText('Your e-mail address is confirmed.')).toBeVisible();
  const listening = pokeStreamOpen(memberPage);
  await memberPage.goto(address);
  await expect(memberPage.getByRole('heading', { name: 'Live Board' })).toBeVisible();
  await expect(memberPage.getByRole('link', { name: 'First' })).toBeVisible();
  await listening;
  await expect(new LinksScreen(memberPage).syncStatus()).toHaveText('Synced');

  // The owner adds a link; the member's screen shows it without a reload, long before the poll.
  await links.addLink('https://second.example.org', 'Second');
  await expect(links.syncStatus()).toHaveText('Synced');
  await expect(memberPage.getByRole('link', { name: 'Second' })).toBeVisible({ timeout: 5_000 });
  await expect(memberPage.getByRole('link', { name: 'Second' })).toHaveAttribute('href', 'https://second.example.org');

  await memberContext.close();
});
