/**
 * The calendar in the real browser: tasks and events, a weekly series edited one
 * occurrence and then all, deleted one and then all; a week planned offline reaching another
 * device; the Free plan's Repeat notice. The browser runs in Europe/Berlin, which sign-up records
 * as the user's zone, so every time below is Berlin wall-clock time.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { fillWhen } from './pages/event-dialog.ts';
import { newUser } from './pages/login-page.ts';
import { pushAs, setTier } from './support/admin.ts';
import { toasts } from './pages/toasts.ts';
import { controlledByServiceWorker, signInElsewhere, signUpAndSync, syncStatus } from './support/workspace.ts';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE, locale: 'en-GB' });

/** 'YYYY-MM-DD' of today + `days` in Berlin. */
const day = (days: number) => Temporal.Now.plainDateISO(ZONE).add({ days }).toString();

/** How the lists show today + `days` at a 24-hour 'HH:mm' in en-GB: '4 Dec, 09:00'. */
const listed = (days: number, clock: string) =>
  `${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' }).format(new Date(`${day(days)}T12:00:00Z`))}, ${clock}`;

interface Item {
  title: string;
  task?: boolean;
  start?: string;
  repeat?: { rule: 'Daily' | 'Weekly' | 'Monthly'; until: string };
}

async function addItem(page: Page, button: string, item: Item) {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  await dialog.getByLabel('Title').fill(item.title);
  if (item.task) await dialog.getByRole('switch', { name: 'This is a task' }).click();
  if (item.start) await fillWhen(dialog, item.task ? 'Due' : 'Start', item.start);
  if (item.repeat) {
    await dialog.getByLabel('Rule').selectOption({ label: item.repeat.rule });
    await dialog.getByLabel('Repeat until').fill(item.repeat.until);
  }
  await dialog.getByRole('button', { name: item.task ? 'Add Task' : 'Add Event' }).click();
  await expect(dialog).toBeHidden();
}

async function itemAction(page: Page, title: string, index: number, action: 'Edit' | 'Delete') {
  await page
    .getByRole('button', { name: `Actions for ${title}`, exact: true })
    .nth(index)
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

async function signUpPro(page: Page, request: Parameters<typeof setTier>[0], prefix: string) {
  const user = newUser(prefix);
  await signUpAndSync(page, user);
  await setTier(request, user, 'pro');
  await page.goto(`/Calendar/${user.username}`);
  await expect(page.getByRole('heading', { name: 'My Calendar & Tasks' })).toBeVisible();
  await expect(page.getByText('events this month')).toBeHidden();
  return user;
}

test('tasks and events, and a weekly series edited and deleted one occurrence and then all', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const user = await signUpPro(page, request, 'cal');
  const tasks = page.getByRole('region', { name: "Today's Tasks" });

  // A task without a date is due today; completing it moves it to Recently Completed, Undo back.
  await addItem(page, 'Add Event or Task', { title: 'Buy milk', task: true });
  await expect(tasks.getByText('Buy milk')).toBeVisible();
  await expect(tasks.getByText('Due: Today')).toBeVisible();
  await tasks.getByRole('checkbox', { name: 'Complete Buy milk' }).click();
  await expect(tasks.getByRole('button', { name: 'Undo Buy milk' })).toBeVisible();
  await expect(page.getByText('1 completed')).toBeVisible();
  await tasks.getByRole('button', { name: 'Undo Buy milk' }).click();
  await expect(tasks.getByRole('checkbox', { name: 'Complete Buy milk' })).not.toBeChecked();
  await expect(page.getByText('0 completed')).toBeVisible();

  // An event tomorrow, and a weekly series from tomorrow for four weeks, seen in Upcoming.
  await addItem(page, 'Add Event or Task', { title: 'Dentist', start: `${day(1)}T10:00` });
  await addItem(page, 'Add Event or Task', {
    title: 'Team sync',
    start: `${day(1)}T09:00`,
    repeat: { rule: 'Weekly', until: day(22) },
  });
  await page.goto(`/Upcoming/${user.username}`);
  const future = page.getByRole('region', { name: 'Future Events' });
  await expect(future.getByText('Dentist')).toBeVisible();
  await expect(future.getByText('Team sync', { exact: true })).toHaveCount(4);
  await expect(future.getByText(listed(8, '09:00'))).toBeVisible();

  // Only the second occurrence: it leaves the series.
  await itemAction(page, 'Team sync', 1, 'Edit');
  let dialog = page.getByRole('dialog', { name: 'Edit Event' });
  await expect(dialog.getByRole('radio', { name: 'Update this event only' })).toBeChecked();
  await expect(dialog.getByLabel('Rule')).toBeDisabled();
  await expect(dialog.getByRole('switch', { name: 'This is a task' })).toBeDisabled();
  await dialog.getByLabel('Title').fill('Team sync (moved)');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(future.getByText('Team sync', { exact: true })).toHaveCount(3);
  await expect(future.getByText('Team sync (moved)')).toBeVisible();

  // All of the series: a new expanded set replaces it; the detached one stays.
  await itemAction(page, 'Team sync', 0, 'Edit');
  dialog = page.getByRole('dialog', { name: 'Edit Event' });
  await dialog.getByRole('radio', { name: 'Update all events in this series' }).click();
  await expect(dialog.getByText('This will delete the old series and create a new one.')).toBeVisible();
  await dialog.getByLabel('Title').fill('Weekly review');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(future.getByText('Team sync', { exact: true })).toHaveCount(0);
  await expect(future.getByText('Weekly review')).toHaveCount(4);
  await expect(future.getByText('Team sync (moved)')).toBeVisible();

  // Delete one occurrence, then the whole series.
  await itemAction(page, 'Weekly review', 0, 'Delete');
  let confirm = page.getByRole('dialog', { name: 'Delete Recurring Event' });
  await confirm.getByRole('button', { name: 'Delete Only This Event' }).click();
  await expect(future.getByText('Weekly review')).toHaveCount(3);
  await itemAction(page, 'Weekly review', 0, 'Delete');
  confirm = page.getByRole('dialog', { name: 'Delete Recurring Event' });
  await confirm.getByRole('button', { name: 'Delete All Events in Series' }).click();
  await expect(future.getByText('Weekly review')).toHaveCount(0);

  // A plain event asks before it goes.
  await itemAction(page, 'Dentist', 0, 'Delete');
  confirm = page.getByRole('dialog', { name: 'Delete Event' });
  await expect(confirm.getByText('Are you sure you want to delete this event?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(future.getByText('Dentist')).toBeHidden();
  await expect(future.getByText('Team sync (moved)')).toBeVisible();
  await expect(syncStatus(page)).toHaveText('Synced');
});

test('a week planned offline reaches another device once the phone is back online', async ({
  page,
  context,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  const user = await signUpPro(page, request, 'calofl');
  await controlledByServiceWorker(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My Calendar & Tasks' })).toBeVisible();
  await expect(syncStatus(page)).toHaveText(/^Offline/);

  await addItem(page, 'Add Event or Task', {
    title: 'Standup',
    start: `${day(1)}T09:30`,
    repeat: { rule: 'Daily', until: day(5) },
  });
  await addItem(page, 'Add Event or Task', { title: 'Pack bags', task: true, start: `${day(6)}T18:00` });
  await expect(syncStatus(page)).toHaveText('Offline — 2 changes waiting');

  await context.setOffline(false);
  await expect(syncStatus(page)).toHaveText('Synced', { timeout: 20_000 });

  const laptop = await signInElsewhere(browser, user);
  await laptop.page.goto(`/Upcoming/${user.username}`);
  const future = laptop.page.getByRole('region', { name: 'Future Events' });
  await expect(future.getByText('Standup')).toHaveCount(5);
  await expect(laptop.page.getByRole('region', { name: 'Pending Tasks' }).getByText('Pack bags')).toBeVisible();
  await laptop.context.close();
});

test('a Free user sees the Pro notice instead of Repeat, and the month badge', async ({ page }) => {
  const user = newUser('calfree');
  await signUpAndSync(page, user);
  // The dashboard's Quick Add 'Create Event' opens the dialog through ?new=event, once.
  await page.goto(`/Calendar/${user.username}?new=event`);
  const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/Calendar/${user.username}$`));
  await expect(page.getByText('0/10 events this month')).toBeVisible();
  await expect(dialog.getByText('Recurring events are a Pro feature.')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Upgrade to Pro' })).toBeVisible();
  await expect(dialog.getByLabel('Rule')).toHaveCount(0);
  await dialog.getByLabel('Title').fill('Lunch');
  await fillWhen(dialog, 'Start', `${day(1)}T12:00`);
  await dialog.getByRole('button', { name: 'Add Event' }).click();
  await expect(page.getByText('1/10 events this month')).toBeVisible();
});

test("a Free user's 11th event of the month, made offline, is refused by the server and rolled back", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const user = newUser('calquota');
  await signUpAndSync(page, user);
  // Nine events pushed through sync_push, as another of the user's devices would push them.
  await pushAs(
    request,
    user,
    Array.from({ length: 9 }, (_, i) => ({
      name: 'event.create',
      args: {
        id: randomUUID(),
        title: `Seed ${i}`,
        starts_at: `${day(2)}T1${i}:00:00Z`,
        ends_at: null,
        is_task: false,
      },
    })),
  );
  await page.goto(`/Calendar/${user.username}`);
  const badge = page.getByText(/^\d+\/10 events this month$/);
  await expect(badge).toHaveText('9/10 events this month');

  const { context: away, page: phone } = await signInElsewhere(browser, user);
  await phone.goto(`/Calendar/${user.username}`);
  // The phone has the app installed before it goes offline: the write path's chunks load from the
  // service worker's cache (without it, the save's chunk load fails offline).
  await controlledByServiceWorker(phone);
  const phoneBadge = phone.getByText(/^\d+\/10 events this month$/);
  await expect(phoneBadge).toHaveText('9/10 events this month');
  await expect(syncStatus(phone)).toHaveText('Synced');
  await away.setOffline(true);
  await addItem(phone, 'Add Event or Task', { title: 'From the train', start: `${day(3)}T08:00` });
  await expect(phoneBadge).toHaveText('10/10 events this month');
  await expect(syncStatus(phone)).toHaveText('Offline — 1 change waiting');

  // Meanwhile the 10th event reaches the server from the laptop.
  await addItem(page, 'Add Event or Task', { title: 'At the desk', start: `${day(3)}T09:00` });
  await expect(badge).toHaveText('10/10 events this month');
  await expect(syncStatus(page)).toHaveText('Synced');

  // Back online, the phone's event is the 11th: refused, said, and removed.
  await away.setOffline(false);
  await expect(toasts(phone).getByText('Upgrade to Pro to create more than 10 events per month.')).toBeVisible({
    timeout: 40_000,
  });
  await expect(syncStatus(phone)).toHaveText('Synced');
  await expect(phoneBadge).toHaveText('10/10 events this month');
  await phone.goto(`/Upcoming/${user.username}`);
  const future = phone.getByRole('region', { name: 'Future Events' });
  await expect(future.getByText('At the desk')).toBeVisible();
  await expect(future.getByText('From the train')).toHaveCount(0);
  await away.close();
});

test('a browser without Temporal loads the polyfill first and plans with it', async ({ page, request }) => {
  // Chromium has Temporal, so it never downloads the polyfill; Safari-like browsers do.
  await page.addInitScript(() => {
    delete (globalThis as { Temporal?: unknown }).Temporal;
  });
  const polyfill: string[] = [];
  page.on('request', (req) => {
    if (/\/assets\/implementation-[^/]+\.js$/.test(new URL(req.url()).pathname)) polyfill.push(req.url());
  });
  const user = await signUpPro(page, request, 'calpoly');
  expect(polyfill.length).toBeGreaterThan(0);
  await addItem(page, 'Add Event or Task', {
    title: 'Standup',
    start: `${day(1)}T09:00`,
    repeat: { rule: 'Daily', until: day(3) },
  });
  // The series' three occurrences in their Berlin wall-clock times, and today's task.
  await addItem(page, 'Add Event or Task', { title: 'Water plants', task: true });
  await expect(page.getByRole('region', { name: "Today's Tasks" }).getByText('Due: Today')).toBeVisible();
  await page.goto(`/Upcoming/${user.username}`);
  const future = page.getByRole('region', { name: 'Future Events' });
  await expect(future.getByText('Standup', { exact: true })).toHaveCount(3);
  await expect(future.getByText(listed(3, '09:00'))).toBeVisible();
});

test.describe('in a 12-hour locale', () => {
  test.use({ locale: 'en-US' });

  test("one date and time format everywhere, all-day items, 'Due: Today' in the grid, and the grid past midnight", async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    // The page's clock runs from now as usual, until the test moves it to midnight.
    await page.clock.install();
    const user = newUser('calfmt');
    await signUpAndSync(page, user);
    await page.goto(`/Calendar/${user.username}`);
    await expect(page.getByRole('heading', { name: 'My Calendar & Tasks' })).toBeVisible();

    await addItem(page, 'Add Event or Task', { title: 'Buy milk', task: true });
    await addItem(page, 'Add Event or Task', { title: 'Review', start: `${day(1)}T14:30` });
    await page.getByRole('button', { name: 'Add Event or Task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
    await dialog.getByLabel('Title').fill('Offsite');
    await dialog.getByRole('checkbox', { name: 'All day' }).check();
    await expect(dialog.getByLabel('Start time')).toHaveCount(0);
    await dialog.getByLabel('Start date').fill(day(1));
    await dialog.getByRole('button', { name: 'Add Event' }).click();
    await expect(dialog).toBeHidden();

    // The dateless task reads 'Due: Today' in the grid's day list as on its card.
    await expect(page.getByRole('region', { name: "Today's Tasks" }).getByText('Due: Today')).toBeVisible();
    const grid = page.locator('section[aria-labelledby="calendar-grid-heading"]');
    await expect(grid.getByRole('listitem').filter({ hasText: 'Buy milk' })).toContainText('Due: Today');

    // Upcoming: the locale's dates and 12-hour times, 'All day' for the all-day event, no ISO dates.
    const tomorrowNoon = Temporal.PlainDate.from(day(1)).toZonedDateTime({ timeZone: ZONE, plainTime: '12:00' });
    const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: ZONE }).format(
      tomorrowNoon.epochMilliseconds,
    );
    await page.goto(`/Upcoming/${user.username}`);
    const future = page.getByRole('region', { name: 'Future Events' });
    await expect(future.getByRole('listitem').filter({ hasText: 'Review' })).toContainText(`${monthDay}, 2:30 PM`);
    await expect(future.getByRole('listitem').filter({ hasText: 'Offsite' })).toContainText(`${monthDay}, All day`);
    await expect(future).not.toContainText(/\d{4}-\d{2}-\d{2}/);
    // The dialog's time field says the time as the lists do.
    await itemAction(page, 'Review', 0, 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit Event' });
    await expect(edit.getByLabel('Start time')).toHaveValue('2:30 PM');
    await expect(edit.getByLabel('End time')).toHaveValue('3:30 PM');
    await edit.getByRole('button', { name: 'Cancel' }).click();

    // Past midnight the grid's selected day is the new today (offline: the server's clock is real).
    await page.goto(`/Calendar/${user.username}`);
    await expect(grid.locator(`[role="gridcell"][aria-selected="true"] [data-day="${day(0)}"]`)).toBeVisible();
    await context.setOffline(true);
    const midnight = Temporal.PlainDate.from(day(1)).toZonedDateTime({ timeZone: ZONE }).epochMilliseconds;
    await page.clock.pauseAt(midnight - 30_000);
    await page.clock.runFor(60_000);
    await expect(grid.locator(`[role="gridcell"][aria-selected="true"] [data-day="${day(1)}"]`)).toBeVisible();
    const longDay = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: ZONE,
    }).format(tomorrowNoon.epochMilliseconds);
    await expect(grid.getByRole('heading', { level: 3, name: longDay })).toBeVisible();
    await expect(grid.getByRole('listitem').filter({ hasText: 'Offsite' })).toContainText('All day');
  });
});
