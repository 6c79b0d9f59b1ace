import { expect, test } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { startPreviewSite, previewSiteUrl, type PreviewSite } from './support/preview-site.ts';
import { runLinkChecks, setTier } from './support/admin.ts';
import { addLink, createDirectory, signUpAndSync, syncStatus } from './support/workspace.ts';

let site: PreviewSite;
test.beforeAll(async () => {
  site = await startPreviewSite();
});
test.afterAll(async () => {
  await site.close();
});

test('a saved link fills itself in: online at once, offline once back online, and a failed page can be retried', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const user = newUser('preview');
  await signUpAndSync(page, user);
  await createDirectory(page, user.username, 'Reading');
  const cards = page.getByTestId('link-card');

  // Online: the title that is only the URL becomes the page's, with its site, description, icon and image.
  await addLink(page, `${previewSiteUrl}/article`, `${previewSiteUrl}/article`);
  const article = cards.filter({ hasText: 'Article' });
  await expect(article.getByRole('link', { name: 'Article', exact: true })).toBeVisible();
  await expect(article).toContainText('Preview Site');
  await expect(article).toContainText('All about article.');
  await expect(article.getByTestId('link-icon')).toHaveJSProperty('naturalWidth', 1);
  await expect(article.getByTestId('link-image')).toHaveJSProperty('naturalWidth', 1);

  // A title the user wrote stays.
  await addLink(page, `${previewSiteUrl}/essay`, 'My own name for it');
  const essay = cards.filter({ hasText: 'My own name for it' });
  await expect(essay).toContainText('All about essay.');
  await expect(essay.getByTestId('link-image')).toHaveJSProperty('naturalWidth', 1);

  // Offline: saved as typed; the preview comes once the device is back online.
  await context.setOffline(true);
  await addLink(page, `${previewSiteUrl}/notebook`, 'Notebook, saved offline');
  const notebook = cards.filter({ hasText: 'Notebook, saved offline' });
  await expect(notebook).toBeVisible();
  await expect(notebook.getByTestId('link-image')).toHaveCount(0);
  await expect(notebook).not.toContainText('Preview Site');
  await context.setOffline(false);
  await expect(notebook).toContainText('All about notebook.');
  await expect(notebook.getByTestId('link-image')).toHaveJSProperty('naturalWidth', 1);

  // A page that fails says so quietly, and Retry reads it again.
  site.failing.add('/down');
  await addLink(page, `${previewSiteUrl}/down`, 'Down for now');
  const down = cards.filter({ hasText: 'Down for now' });
  await expect(down).toContainText('No preview');
  site.failing.delete('/down');
  await down.getByRole('button', { name: 'Retry' }).click();
  await expect(down).toContainText('All about down.');
  await expect(down).not.toContainText('No preview');
  await expect(down.getByTestId('link-icon')).toHaveJSProperty('naturalWidth', 1);
});

test('a Pro user’s link to a page that is gone is marked by the weekly check, and found under Broken links', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const user = newUser('broken');
  await signUpAndSync(page, user);
  await setTier(request, user, 'pro');
  await page.reload();
  await createDirectory(page, user.username, 'Reading');
  await addLink(page, `${previewSiteUrl}/missing/old-post`, 'An old post');
  await addLink(page, `${previewSiteUrl}/alive`, 'Still here');
  const cards = page.getByTestId('link-card');
  await expect(cards).toHaveCount(2);
  await expect(syncStatus(page)).toHaveText('Synced');

  // The check runs (the stack's scheduler every 10 minutes; here at once, again until both links
  // reached the server), and the mark reaches the device by the poke's pull.
  const old = cards.filter({ hasText: 'An old post' });
  await expect
    .poll(async () => {
      await runLinkChecks(request, user);
      return old.getByText('Broken link').count();
    })
    .toBe(1);
  await expect(cards.filter({ hasText: 'Still here' }).getByText('Broken link')).toHaveCount(0);

  // My Links → Broken links lists it, with its directory.
  await page.goto(`/Links/${user.username}`);
  await page.getByRole('button', { name: 'Broken links' }).click();
  const broken = page.getByTestId('broken-link');
  await expect(broken).toHaveCount(1);
  await expect(broken).toContainText('An old post');
  await expect(broken.getByRole('link', { name: 'Reading' })).toBeVisible();
});
