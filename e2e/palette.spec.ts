/**
 * The command palette and the keyboard shortcuts (docs/product.md, Command palette; Keyboard shortcuts),
 * by keyboard alone: Ctrl+K finds and opens items and runs every action; `?`, `g c`, `n` and `/`; a typed
 * plan, the theme and sign out.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { newUser } from './pages/login-page.ts';
import { addLink, createDirectory, outboxAndTheme, signUpAndSync, syncStatus } from './support/workspace.ts';

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });

/** Opens the palette with Ctrl+K, types `query` and waits for `option` to be the active one. */
async function find(page: Page, query: string, option: RegExp | string) {
  // Ctrl+K does not open the palette over another dialog: the one before must be gone.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.keyboard.press('Control+k');
  const dialog = palette(page);
  await expect(dialog.getByRole('combobox')).toBeFocused();
  await page.keyboard.type(query);
  await expect(dialog.getByRole('option', { selected: true })).toHaveAccessibleName(option);
}

// Three journeys, each on its own account: one long journey ran close to the test's time limit on a
// busy machine, and the context's teardown then went past it.
test('the palette finds and opens items and runs its actions by keyboard', async ({ page, baseURL }) => {
  const user = newUser('pal');
  await signUpAndSync(page, user);
  // The palette's code is not part of the dashboard: it loads with the first Ctrl+K.
  const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
  expect(scripts.filter((name) => /palette-/.test(name))).toEqual([]);

  const dirId = await createDirectory(page, user.username, 'Reading');
  await addLink(page, `${baseURL}/About`, 'Crème guide');
  await page.goto(`/Dashboard/${user.username}`);
  await expect(page.getByRole('heading', { name: "Today's Focus" })).toBeVisible();
  await expect(syncStatus(page)).toHaveText('Synced');

  // Open: actions and screens first, axe finds nothing to fault.
  await page.keyboard.press('Control+k');
  await expect(palette(page)).toBeVisible();
  await expect(palette(page).getByRole('option', { name: 'Add Link' })).toBeVisible();
  await expect(palette(page).getByRole('option', { name: /Crème guide/ })).toBeVisible();
  const axe = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(axe.violations.map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }))).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();

  // A link opens its page in a new tab, found without its accent.
  await find(page, 'creme', /Crème guide/);
  const [tab] = await Promise.all([page.context().waitForEvent('page'), page.keyboard.press('Enter')]);
  await tab.waitForURL(/\/About$/);
  await tab.close();
  await expect(palette(page)).toBeHidden();

  // A directory opens on the Links screen.
  await find(page, 'readi', /Reading/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/Links/${user.username}/dir/${dirId}$`));

  // Add Link, Create Event, Add Task, Create Poll open their dialogs.
  await find(page, 'add link', 'Add Link');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Add Link' })).toBeVisible();
  await page.keyboard.press('Escape');

  await find(page, 'create event', 'Create Event');
  await page.keyboard.press('Enter');
  let dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('switch', { name: 'This is a task' })).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await find(page, 'add task', 'Add Task');
  await page.keyboard.press('Enter');
  dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  await expect(dialog.getByRole('switch', { name: 'This is a task' })).toBeChecked();
  await dialog.getByLabel('Title').fill('Pay the rent');
  await dialog.getByRole('button', { name: 'Add Task' }).click();
  await expect(dialog).toBeHidden();

  await find(page, 'create poll', 'Create Poll');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/Voting/${user.username}`));
  await expect(page.getByRole('dialog', { name: 'Create Poll' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A task opens on the calendar, in its dialog.
  await find(page, 'rent', /Pay the rent/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Edit Task' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/Calendar/${user.username}$`));
  await page.keyboard.press('Escape');
});

test('the palette goes to a screen; ?, g c, n and / work', async ({ page }) => {
  const user = newUser('keys');
  await signUpAndSync(page, user);

  // Go to a screen.
  await find(page, 'profile', /Go to Profile/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/Profile/${user.username}$`));

  // ? lists the shortcuts.
  await page.locator('body').press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog.getByText('Open the command palette')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // g c goes to the calendar and says so; n opens its Add dialog.
  await page.keyboard.press('g');
  await page.keyboard.press('c');
  await expect(page).toHaveURL(new RegExp(`/Calendar/${user.username}$`));
  await expect(page.getByRole('status').filter({ hasText: 'My Calendar & Tasks' })).toBeAttached();
  await expect(page.getByRole('button', { name: 'Add Event or Task' })).toHaveAttribute('aria-keyshortcuts', 'n');
  await page.keyboard.press('n');
  await expect(page.getByRole('dialog', { name: 'Add Event or Task' })).toBeVisible();
  await page.keyboard.press('Escape');

  // / focuses the search of My Links; n in it types.
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page).toHaveURL(new RegExp(`/Links/${user.username}$`));
  const search = page.getByRole('searchbox', { name: 'Search' });
  await expect(search).toBeVisible();
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await page.keyboard.type('n');
  await expect(search).toHaveValue('n');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a plan typed in the palette, the theme and sign out, by keyboard', async ({ page }) => {
  const user = newUser('plan');
  await signUpAndSync(page, user);
  await page.goto(`/Links/${user.username}`);
  await expect(syncStatus(page)).toHaveText('Synced');

  // A plan typed in the palette: the Calendar's dialog with it in 'Type a plan', previewed; the user confirms.
  await find(page, 'Dentist tomorrow 15:30', /^Add event: Dentist · /);
  await page.keyboard.press('Enter');
  const planned = page.getByRole('dialog', { name: 'Add Event or Task' });
  await expect(planned.getByLabel('Type a plan')).toHaveValue('Dentist tomorrow 15:30');
  await planned.getByRole('button', { name: 'Use this' }).click();
  await expect(planned.getByLabel('Title')).toHaveValue('Dentist');
  await expect(planned.getByLabel('Start time')).toHaveValue('3:30 PM');
  await planned.getByRole('button', { name: 'Add Event' }).click();
  await expect(planned).toBeHidden();

  // The theme, by keyboard: shown at once, and the choice a cold start opens in.
  await find(page, 'theme dark', 'Theme: Dark');
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(syncStatus(page)).toHaveText('Synced');
  await find(page, 'theme light', 'Theme: Light');
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  // Sign out through the app's own path, once the theme's change has left the outbox (with one waiting, it asks first).
  await expect.poll(() => outboxAndTheme(page)).toEqual({ outbox: 0, theme: 'light' });
  await find(page, 'sign out', 'Sign out');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
});
