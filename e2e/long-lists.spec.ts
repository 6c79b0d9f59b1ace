/**
 * A directory of 500 links in the real browser: the list and the grid mount only a window of
 * rows (virtual-rows.tsx), and scrolling through them reaches every link.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Locator } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { pushAs, setTier } from './support/admin.ts';
import { createDirectory, signUpAndSync, syncStatus } from './support/workspace.ts';

/** Scrolls the viewport from top to bottom a screen at a time, collecting the link titles mounted. */
async function scrollThrough(viewport: Locator): Promise<{ seen: Set<string>; mostMounted: number }> {
  const seen = new Set<string>();
  let mostMounted = 0;
  await viewport.evaluate((node) => node.scrollTo(0, 0));
  for (;;) {
    const titles = await viewport.getByRole('link', { name: /^Item \d{3}$/ }).allInnerTexts();
    titles.forEach((title) => seen.add(title));
    mostMounted = Math.max(mostMounted, titles.length);
    const atEnd = await viewport.evaluate((node) => {
      if (node.scrollTop + node.clientHeight >= node.scrollHeight - 1) return true;
      node.scrollBy(0, node.clientHeight);
      return false;
    });
    if (atEnd) return { seen, mostMounted };
    // The virtualizer renders the new window on the scroll event's frame.
    await viewport.page().evaluate(() => new Promise(requestAnimationFrame));
  }
}

test('a long directory is windowed and scrolls through every link, in the list and the grid', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const user = newUser('long');
  await signUpAndSync(page, user);
  await setTier(request, user, 'pro');
  const dirId = await createDirectory(page, user.username, 'Everything');
  await expect(syncStatus(page)).toHaveText('Synced');
  await pushAs(
    request,
    user,
    Array.from({ length: 500 }, (_, i) => ({
      name: 'link.create',
      args: {
        id: randomUUID(),
        directory_id: dirId,
        url: `https://item${i}.example`,
        title: `Item ${String(i).padStart(3, '0')}`,
      },
    })),
  );
  await page.reload();
  await expect(page.getByText('500 links', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'List view' }).click();
  const list = page.getByRole('region', { name: 'Links list' });
  await expect(list).toBeVisible();
  const inList = await scrollThrough(list);
  expect(inList.seen.size).toBe(500);
  expect(inList.mostMounted).toBeLessThan(80);

  await page.getByRole('button', { name: 'Grid view' }).click();
  const grid = page.getByRole('region', { name: 'Links grid' });
  await expect(grid).toBeVisible();
  const inGrid = await scrollThrough(grid);
  expect(inGrid.seen.size).toBe(500);
  expect(inGrid.mostMounted).toBeLessThan(120);
});
