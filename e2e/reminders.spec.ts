/**
 * Local reminders in the real browser: an event made offline with a reminder 5
 * minutes before shows exactly one notification, through the service worker, when the page's
 * clock reaches it, and none again after more time and a reload. The page's clock is Playwright's
 * (page.clock); every showNotification call is counted in localStorage, so a repeat would show
 * even where a same-tag notification replaces the first. The profile's default reminder is what
 * a new event starts with.
 */
import { expect, test, type Page } from '@playwright/test';
import { fillWhen } from './pages/event-dialog.ts';
import { Temporal } from 'temporal-polyfill';
import { newUser } from './pages/login-page.ts';
import { controlledByServiceWorker, signUpAndSync, syncStatus } from './support/workspace.ts';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

/** Counts the page's showNotification calls across reloads. */
function countNotifications() {
  const show = ServiceWorkerRegistration.prototype.showNotification;
  ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
    localStorage.setItem('e2e-notifications', String(Number(localStorage.getItem('e2e-notifications') ?? 0) + 1));
    return show.call(this, title, options);
  };
}

const shownCount = (page: Page) => page.evaluate(() => Number(localStorage.getItem('e2e-notifications') ?? 0));
const notifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url }));
  });

test('an event made offline with a 5-minutes-before reminder shows one notification at its time', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['notifications'], { origin: baseURL });
  await page.addInitScript(countNotifications);
  await page.clock.install();
  const user = newUser('remind');
  await signUpAndSync(page, user);
  await page.goto(`/Calendar/${user.username}`);
  await expect(page.getByRole('heading', { name: 'My Calendar & Tasks' })).toBeVisible();
  await controlledByServiceWorker(page);

  await context.setOffline(true);
  await page.reload();
  await expect(syncStatus(page)).toHaveText(/^Offline/);

  // Ten minutes from the page's now (rounded up to the minute), in Berlin wall-clock time.
  const now = await page.evaluate(() => Date.now());
  const start = Temporal.Instant.fromEpochMilliseconds(now + 11 * 60_000)
    .toZonedDateTimeISO(ZONE)
    .round({ smallestUnit: 'minute', roundingMode: 'floor' });
  const startInput = start.toPlainDateTime().toString({ smallestUnit: 'minute' });
  const clock = `${String(start.hour).padStart(2, '0')}:${String(start.minute).padStart(2, '0')}`;

  await page.getByRole('button', { name: 'Add Event or Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  await dialog.getByLabel('Title').fill('Standup');
  await fillWhen(dialog, 'Start', startInput);
  await dialog.getByLabel('Reminder').selectOption({ label: '5 minutes before' });
  await expect(dialog.getByText(/Notifications are blocked/)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add Event' }).click();
  await expect(dialog).toBeHidden();
  await expect(syncStatus(page)).toHaveText('Offline — 1 change waiting');

  // Not yet: the reminder is due five minutes before the start.
  await page.clock.runFor(60_000);
  expect(await shownCount(page)).toBe(0);

  const due = start.toInstant().epochMilliseconds - 5 * 60_000;
  // Said from the moment it is shown (its due time): 'today', or 'tomorrow' across midnight.
  const dueDay = Temporal.Instant.fromEpochMilliseconds(due).toZonedDateTimeISO(start.timeZoneId).toPlainDate();
  const day = dueDay.equals(start.toPlainDate()) ? 'today' : 'tomorrow';
  await page.clock.runFor(due - (await page.evaluate(() => Date.now())) + 1_000);
  await expect.poll(() => shownCount(page)).toBe(1);
  await expect
    .poll(() => notifications(page))
    .toEqual([
      {
        title: 'Standup',
        body: `Starts ${day} at ${clock}`,
        tag: expect.stringMatching(/@/),
        url: `/Calendar/${user.username}`,
      },
    ]);

  // More time, a re-plan on visibility and a reload: still the one notification.
  await page.clock.runFor(2 * 60_000);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My Calendar & Tasks' })).toBeVisible();
  await page.clock.runFor(60_000);
  await page.waitForTimeout(1_000);
  expect(await shownCount(page)).toBe(1);
  expect(await notifications(page)).toHaveLength(1);
});

test("the profile's default reminder is what a new event starts with", async ({ page, context, baseURL }) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const user = newUser('remdef');
  await signUpAndSync(page, user);
  await page.goto(`/Profile/${user.username}`);
  const reminders = page.getByRole('region', { name: 'Reminders' });
  await reminders.getByLabel('Default reminder').selectOption({ label: '1 hour before' });
  await reminders.getByRole('button', { name: 'Save default reminder' }).click();
  await expect(syncStatus(page)).toHaveText('Synced');

  await page.goto(`/Calendar/${user.username}`);
  await page.getByRole('button', { name: 'Add Event or Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Event or Task' });
  await expect(dialog.getByLabel('Reminder')).toHaveValue('60');
});

test('in a browser without a push service, the push switch says reminders still show while Linkboard is open', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const user = newUser('nopush');
  await signUpAndSync(page, user);
  await page.goto(`/Profile/${user.username}`);
  await controlledByServiceWorker(page);
  const reminders = page.getByRole('region', { name: 'Reminders' });
  const toggle = reminders.getByRole('switch', { name: 'Remind me on this device when Linkboard is closed' });
  await expect(toggle).toBeEnabled();
  // Headless Chromium has PushManager but no push service: subscribe() rejects with an AbortError.
  const thrown = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const key = document.querySelector('meta[name="linkboard-vapid-key"]')?.getAttribute('content') ?? '';
    const bytes = Uint8Array.from(atob(key.replace(/-/g, '+').replace(/_/g, '/').padEnd(88, '=')), (c) =>
      c.charCodeAt(0),
    );
    return registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: bytes })
      .then(() => 'subscribed')
      .catch((error: DOMException) => error.name);
  });
  test.skip(thrown === 'subscribed', 'this Chromium has a push service');
  expect(thrown).toBe('AbortError');

  await toggle.click();
  await expect(reminders.getByRole('status')).toHaveText(
    'This browser cannot receive push reminders. Reminders still show while Linkboard is open.',
  );
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeDisabled();
});
