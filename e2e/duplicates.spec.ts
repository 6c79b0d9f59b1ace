import { expect, test } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { addLink, createDirectory, signUpAndSync } from './support/workspace.ts';

test('Add Link says where a URL is already saved, links there, and saves it anyway', async ({ page }) => {
  test.setTimeout(60_000);
  const user = newUser('dupes');
  await signUpAndSync(page, user);
  const reading = await createDirectory(page, user.username, 'Reading');
  await addLink(page, 'https://example.org/page', 'The page');
  const cards = page.getByTestId('link-card');
  await expect(cards).toHaveCount(1);

  // The same page from a newsletter, typed as a person types: said before saving.
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  let dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').pressSequentially('http://www.Example.org/page/?utm_source=newsletter&fbclid=IwAR2x');
  const notice = dialog.getByRole('status').filter({ hasText: 'Already saved in' });
  await expect(notice).toHaveText('Already saved in Reading');
  const there = notice.getByRole('link', { name: 'Reading' });
  await expect(there).toHaveAttribute('href', `/Links/${user.username}/dir/${reading}`);
  await expect(dialog.getByRole('button', { name: 'Save anyway' })).toBeVisible();

  // Following the link opens the directory, the dialog closed.
  await there.click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/Links/${user.username}/dir/${reading}$`));
  await expect(cards).toHaveCount(1);

  // Save anyway: two links.
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill('https://example.org/page?utm_campaign=nov');
  await dialog.getByLabel('Title').fill('The page again');
  await dialog.getByRole('button', { name: 'Save anyway' }).click();
  await expect(dialog).toBeHidden();
  await expect(cards).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'The page again' })).toHaveAttribute(
    'href',
    'https://example.org/page?utm_campaign=nov',
  );

  // Another page says nothing and keeps its usual button.
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill('https://example.org/another');
  await dialog.getByLabel('Title').fill('Another');
  await expect(dialog.getByRole('button', { name: 'Add Link' })).toBeVisible();
  await expect(dialog.getByText('Already saved in')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(cards).toHaveCount(3);
});
