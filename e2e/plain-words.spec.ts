/**
 * A plan typed in plain words (docs/product.md, Calendar 'Type a plan') becomes the right weekly series in
 * the user's time zone, not the device's: the browser runs in Europe/Berlin and the profile says
 * another zone, set on the Profile screen like a user would. The series is checked on Upcoming, which
 * shows times in the profile's zone: a plan read in the device's zone would show another time there.
 * The plan is typed offline: the parser needs no network.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { newUser } from './pages/login-page.ts';
import { setTier } from './support/admin.ts';
import { signUpAndSync, syncStatus } from './support/workspace.ts';

test.use({ timezoneId: 'Europe/Berlin', locale: 'en-GB' });

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const dayMonth = (date: Temporal.PlainDate) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date.toString()}T12:00:00Z`),
  );
const dayMonthYear = (date: Temporal.PlainDate) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date.toString()}T12:00:00Z`),
  );

async function setProfileZone(page: Page, username: string, zone: string) {
  await page.goto(`/Profile/${username}`);
  await page.getByRole('combobox', { name: 'Time zone' }).selectOption(zone);
  await page.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Time zone saved.', { exact: true })).toBeVisible();
}

for (const zone of ['America/Los_Angeles', 'Pacific/Auckland']) {
  test(`a typed weekly plan is saved at its wall-clock time in the profile's zone (${zone})`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const user = newUser('words');
    await signUpAndSync(page, user);
    await setTier(request, user, 'pro');
    await setProfileZone(page, user.username, zone);

    // A weekday two days ahead in the profile's zone, so every occurrence is in Upcoming (from tomorrow on).
    const today = Temporal.Now.plainDateISO(zone);
    const first = today.add({ days: 2 });
    const until = today.add({ days: 20 });
    const weekday = WEEKDAYS[first.dayOfWeek - 1]!;
    const phrase = `Yoga every ${weekday} 7:30 until ${dayMonthYear(until)}`;

    await page.goto(`/Calendar/${user.username}`);
    await expect(page.getByRole('heading', { name: 'My Calendar & Tasks' })).toBeVisible();
    // Typed offline: the field and its parser are on the device once the screen has been idle.
    await expect(syncStatus(page)).toHaveText('Synced');
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Add Event or Task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
    await expect(dialog).toContainText(`(${zone})`);
    await dialog.getByLabel('Type a plan').fill(phrase);
    const preview = dialog.getByRole('status', { name: 'Plan preview' });
    await expect(preview.getByTestId('plan-when')).toHaveText(`${dayMonthYear(first)}, 07:30 – 08:30`);
    await expect(preview.getByTestId('plan-repeats')).toHaveText(`Weekly, until ${dayMonth(until)}`);
    await preview.getByRole('button', { name: 'Use this' }).click();
    await expect(dialog.getByLabel('Title')).toHaveValue('Yoga');
    await expect(dialog.getByLabel('Rule')).toHaveValue('weekly');
    await dialog.getByRole('button', { name: 'Add Event' }).click();
    await expect(dialog).toBeHidden();
    await page.context().setOffline(false);
    await expect(syncStatus(page)).toHaveText('Synced');

    await page.goto(`/Upcoming/${user.username}`);
    const future = page.getByRole('region', { name: 'Future Events' });
    await expect(future.getByText('Yoga', { exact: true })).toHaveCount(3);
    for (const days of [0, 7, 14]) {
      await expect(future.getByText(`${dayMonth(first.add({ days }))}, 07:30`)).toBeVisible();
    }
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });
    test('the typed plan field and its preview have no WCAG 2.1 AA violations axe can find', async ({ page }) => {
      const user = newUser('wordsa11y');
      await signUpAndSync(page, user);
      await page.goto(`/Calendar/${user.username}`);
      await page.getByRole('button', { name: 'Add Event or Task' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
      await dialog.getByLabel('Type a plan').fill('Yoga every 2nd tuesday 7am !high');
      const preview = dialog.getByRole('status', { name: 'Plan preview' });
      await expect(preview).toContainText("Repeats: not understood: 'every 2nd tuesday'");
      if (colorScheme === 'dark') await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await dialog.screenshot({ path: test.info().outputPath(`${colorScheme}-plan-preview.png`) });
      const result = await new AxeBuilder({ page })
        .include('[role="dialog"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect(
        result.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((node) => node.target.join(' ')) })),
      ).toEqual([]);
    });
  });
}
