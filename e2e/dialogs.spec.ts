/**
 * Dialogs, plan limits, toasts and the cookie banner in the real browser: a limit is said before
 * a form is filled in; a refusal is said inside the dialog, which keeps the focus and closes on one
 * Escape; the banner stays below dialogs, leaves the last cards clear and toasts stack above it.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { toasts } from './pages/toasts.ts';
import { pushAs, setTier } from './support/admin.ts';
import { createDirectory, signUpAndSync, syncStatus } from './support/workspace.ts';

type Box = { x: number; y: number; width: number; height: number };

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

/** The banner, found by its label: an open modal dialog hides it from the accessibility tree. */
const banner = (page: Page) => page.locator('[role="region"][aria-label="Cookie consent"]');

/** Whether the focus is inside the open dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null && document.activeElement !== null);

test('at the Free limit, Create New Directory shows the upsell before any form, above the cookie banner', async ({
  page,
}) => {
  const user = newUser('upsell');
  await signUpAndSync(page, user);
  await createDirectory(page, user.username, 'Reading');
  await page.goto(`/Links/${user.username}`);
  await expect(banner(page)).toBeVisible();
  await page.getByRole('button', { name: /Create New Directory/ }).click();
  const upsell = page.getByRole('dialog', { name: 'Create Directory' });
  await expect(upsell).toContainText('Upgrade to Pro to create more directories.');
  await expect(upsell.getByLabel('Name')).toHaveCount(0);
  await expect(upsell.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute(
    'href',
    `/Upgrade/${user.username}`,
  );

  // What is drawn where the banner's buttons are is the dialog's overlay (or the dialog), not the banner.
  for (const name of ['Essential only', 'Accept all']) {
    const box = await boxOf(banner(page).getByText(name, { exact: true }));
    const top = await page.evaluate(
      ([x, y]) => {
        const element = document.elementFromPoint(x!, y!);
        if (!element) return 'nothing';
        if (element.closest('[aria-label="Cookie consent"]')) return 'banner';
        if (element.closest('[role="dialog"]')) return 'dialog';
        return element.matches('[data-state="open"]') && getComputedStyle(element).position === 'fixed'
          ? 'overlay'
          : element.tagName;
      },
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(['overlay', 'dialog']).toContain(top);
  }

  await page.keyboard.press('Escape');
  await expect(upsell).toBeHidden();
});

test('a save refused by the local check is said inside the dialog, which keeps the focus and closes on one Escape', async ({
  page,
  request,
}) => {
  const user = newUser('refused');
  await signUpAndSync(page, user);
  await page.goto(`/Links/${user.username}`);
  await page.getByRole('button', { name: /Create New Directory/ }).click();
  const form = page.getByRole('dialog', { name: 'Create Directory' });
  await form.getByLabel('Name').fill('From this device');

  // Meanwhile another device creates the one directory the Free plan allows; it arrives here.
  await pushAs(request, user, [{ name: 'directory.create', args: { id: randomUUID(), name: 'From elsewhere' } }]);
  await expect(page.getByRole('button', { name: 'Open From elsewhere', includeHidden: true })).toHaveCount(1);

  await form.getByRole('button', { name: 'Create Directory' }).click();
  await expect(form.getByRole('alert')).toHaveText('Upgrade to Pro to create more directories.');
  expect(await focusInDialog(page)).toBe(true);
  await expect(toasts(page).getByText('Upgrade to Pro to create more directories.')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open From this device' })).toHaveCount(0);
});

test("at the month's events limit, Add Event says so before the form is filled in; a task is still allowed", async ({
  page,
  request,
}) => {
  const user = newUser('evlimit');
  await signUpAndSync(page, user);
  const start = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  await pushAs(
    request,
    user,
    Array.from({ length: 10 }, (_, i) => ({
      name: 'event.create',
      args: {
        id: randomUUID(),
        title: `Seed ${i}`,
        starts_at: `${start}T1${i % 10}:00:00Z`,
        ends_at: null,
        is_task: false,
      },
    })),
  );
  await page.goto(`/Calendar/${user.username}`);
  await expect(page.getByText('10/10 events this month')).toBeVisible();
  await page.getByRole('button', { name: 'Add Event or Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  const notice = dialog
    .getByRole('status')
    .filter({ hasText: 'Upgrade to Pro to create more than 10 events per month.' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('You can still add tasks.');
  await expect(notice.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute(
    'href',
    `/Upgrade/${user.username}`,
  );
  await dialog.getByRole('switch', { name: 'This is a task' }).click();
  await expect(notice).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the cookie banner leaves the last poll card clear, toasts stack above its buttons, ended polls come last', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const user = newUser('board');
    await signUpAndSync(page, user);
    const open = `Open ${randomUUID().slice(0, 8)}`;
    const ending = `Ending ${randomUUID().slice(0, 8)}`;
    await pushAs(request, user, [
      {
        name: 'poll.create',
        args: {
          id: randomUUID(),
          title: ending,
          options: ['Yes', 'No'],
          deadline: new Date(Date.now() + 4_000).toISOString(),
        },
      },
      { name: 'poll.create', args: { id: randomUUID(), title: open, options: ['Tea', 'Coffee'] } },
    ]);
    await page.goto(`/Voting/${user.username}`);
    await expect(page.getByRole('heading', { name: 'Public Voting Board' })).toBeVisible();

    // Once its deadline passes, the ending poll moves under 'Ended', after every open poll.
    const ended = page.getByRole('region', { name: 'Ended' });
    await expect(ended.getByRole('article', { name: ending })).toBeVisible({ timeout: 30_000 });
    await expect(ended.getByRole('article', { name: open })).toHaveCount(0);
    const order = await page
      .getByRole('article')
      .evaluateAll((cards) =>
        cards.map((card) => document.getElementById(card.getAttribute('aria-labelledby') ?? '')?.textContent),
      );
    expect(order.indexOf(open)).toBeLessThan(order.indexOf(ending));

    // At the end of the page the last card is clear of the banner.
    await expect(banner(page)).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const cards = page.getByRole('article');
    const last = cards.last();
    await expect(last).toBeInViewport();
    const bannerBox = await boxOf(banner(page));
    for (const card of await cards.all()) {
      const box = await card.boundingBox();
      if (box) expect(intersects(box, bannerBox)).toBe(false);
    }

    // A toast ('Your plan is now Team.') lands above the banner's buttons, not on them.
    await expect(syncStatus(page)).toHaveText('Synced');
    await setTier(request, user, 'team');
    const toast = toasts(page).getByText('Your plan is now Team.');
    await expect(toast).toBeVisible({ timeout: 30_000 });
    const toastBox = await boxOf(toasts(page).locator('li').filter({ hasText: 'Your plan is now Team.' }));
    for (const name of ['Essential only', 'Accept all']) {
      expect(intersects(toastBox, await boxOf(banner(page).getByRole('button', { name })))).toBe(false);
    }
  });
});
