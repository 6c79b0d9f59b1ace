import { expect, test } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import {
  addLink,
  controlledByServiceWorker,
  createDirectory,
  signInElsewhere,
  signUpAndSync,
  syncStatus,
} from './support/workspace.ts';

test('a link added offline survives an offline reload, syncs on reconnect and reaches another browser', async ({
  page,
  context,
  browser,
}) => {
  const user = newUser('offline_links');
  await signUpAndSync(page, user);
  await controlledByServiceWorker(page);
  const dirId = await createDirectory(page, user.username, 'Offline reading');
  const directoryPath = `/Links/${user.username}/dir/${dirId}`;
  await expect(syncStatus(page)).toHaveText('Synced');

  await context.setOffline(true);
  await expect(syncStatus(page)).toHaveText(/^Offline/);
  await addLink(page, 'https://offline.example/article', 'Read on the train');
  const card = page.getByTestId('link-card').filter({ hasText: 'Read on the train' });
  await expect(card).toBeVisible();
  await expect(syncStatus(page)).toHaveText('Offline — 1 change waiting');

  // The service worker serves the app; the link and its queued change come from IndexedDB.
  await page.reload();
  await expect(page).toHaveURL(new RegExp(`${directoryPath}$`));
  await expect(page.getByRole('heading', { name: 'Offline reading' })).toBeVisible();
  await expect(card).toBeVisible();
  await expect(page.getByRole('link', { name: 'Read on the train' })).toHaveAttribute(
    'href',
    'https://offline.example/article',
  );
  await expect(syncStatus(page)).toHaveText('Offline — 1 change waiting');

  await context.setOffline(false);
  // Reconnecting triggers a sync ('online'); the 30-second visible-tab sync is the fallback.
  await expect(syncStatus(page)).toHaveText('Synced', { timeout: 40_000 });

  const { context: other, page: otherPage } = await signInElsewhere(browser, user);
  await otherPage.goto(directoryPath);
  await expect(otherPage.getByRole('heading', { name: 'Offline reading' })).toBeVisible();
  await expect(otherPage.getByRole('link', { name: 'Read on the train' })).toHaveAttribute(
    'href',
    'https://offline.example/article',
  );
  await other.close();
});
