/**
 * Layout at a 375 × 812 phone and at desktop size: the links screen's header toolbar stays on
 * one line, and the update prompt never covers the sidebar's footer (Profile, Logout).
 * Screenshots go to test-results/layout/ for a look.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { controlledByServiceWorker, createDirectory, signUpAndSync } from './support/workspace.ts';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/layout/${name}.png` });

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not visible');
  return found;
}

function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Every visible button of the directory's toolbar sits on one line, inside the viewport. */
async function expectOneLine(page: Page, width: number) {
  const buttons = page.getByTestId('directory-actions').getByRole('button');
  await expect(buttons.filter({ hasText: 'Add Link' })).toBeVisible();
  const names = await buttons.allInnerTexts();
  expect(names.length).toBeGreaterThanOrEqual(4);
  const middles: number[] = [];
  for (const button of await buttons.all()) {
    const b = await box(button);
    middles.push(b.y + b.height / 2);
    expect(b.x + b.width).toBeLessThanOrEqual(width);
  }
  // One line: every button's middle within a few pixels of the others' (borders differ by a pixel).
  expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
}

test('the links header toolbar stays on one line on a 375 px phone and on a desktop', async ({ page }) => {
  const user = newUser('narrow');
  await signUpAndSync(page, user);
  await createDirectory(page, user.username, 'Reading list for the week');
  await expect(page.getByRole('button', { name: 'Members', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invite', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Settings', exact: true })).toBeVisible();
  await expectOneLine(page, DESKTOP.width);
  await shot(page, 'directory-desktop');

  // Crossing the phone breakpoint keeps the screen: what was typed in the search stays.
  await page.getByRole('searchbox', { name: 'Search' }).fill('kept');
  await page.setViewportSize(PHONE);
  await expect(page.getByRole('button', { name: 'Toggle sidebar' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('kept');
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expectOneLine(page, PHONE.width);
  // The names stay for screen readers; the search and the view switch share a line too.
  await expect(page.getByRole('button', { name: 'Grid view' })).toBeVisible();
  const search = await box(page.getByRole('searchbox', { name: 'Search' }));
  const grid = await box(page.getByRole('button', { name: 'Grid view' }));
  expect(Math.abs(search.y + search.height / 2 - (grid.y + grid.height / 2))).toBeLessThan(4);
  await shot(page, 'directory-phone');

  await page.goto(`/Links/${user.username}`);
  await expect(page.getByRole('heading', { name: 'My Links' })).toBeVisible();
  await shot(page, 'grid-phone');
});

/**
 * Installs the worker again under another script URL (same scope), so the browser treats it as a
 * new version that waits, exactly as a deploy's new sw.js does.
 */
async function publishNewVersion(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js?next-version', { scope: '/' });
  });
}

test('the update prompt keeps clear of the sidebar footer, on a desktop and on a phone', async ({ page }) => {
  const user = newUser('prompt');
  await page.setViewportSize(DESKTOP);
  await signUpAndSync(page, user);
  await controlledByServiceWorker(page);
  await publishNewVersion(page);
  const prompt = page.getByRole('status').filter({ hasText: 'A new version of Linkboard is available.' });
  await expect(prompt).toBeVisible({ timeout: 30_000 });

  const nav = page.getByRole('navigation', { name: 'Main' });
  const footer = [nav.getByRole('button', { name: 'Logout' }), nav.getByRole('link', { name: /Your Profile|@/ })];
  // Measured once the shell is there: a reload into the worker may show the prompt first.
  for (const item of footer) {
    await expect(item).toBeVisible();
    await expect.poll(async () => overlap(await box(prompt), await box(item))).toBe(false);
  }
  await shot(page, 'prompt-desktop');

  await page.keyboard.press('Control+b');
  await expect(nav.getByRole('heading', { name: 'Workspace' })).toBeHidden();
  // The sidebar narrows with a transition: measure once it has settled.
  for (const item of footer) {
    await expect(item).toBeVisible();
    await expect.poll(async () => overlap(await box(prompt), await box(item))).toBe(false);
  }
  await shot(page, 'prompt-desktop-collapsed');
  await page.keyboard.press('Control+b');

  await page.setViewportSize(PHONE);
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  const logout = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' });
  await expect(logout).toBeVisible();
  // The open drawer is above the prompt: its footer takes the clicks.
  const center = await box(logout);
  const onTop = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null,
    { x: center.x + center.width / 2, y: center.y + center.height / 2 },
  );
  expect(onTop).toContain('Logout');
  await shot(page, 'prompt-phone-drawer');
  await page.getByRole('button', { name: 'Close sidebar' }).click();
  await expect(prompt).toBeVisible();
  await shot(page, 'prompt-phone');
});
