/**
 * A Free user upgrades to Pro yearly through the test-mode checkout (the local stack playing the
 * card provider, its signed webhook setting the tier), is told the payment is confirmed once the
 * plan arrives, sees the Pro plan card and can add tags, and the Upgrade page opens on Yearly.
 * Cancelled in the portal, the plan runs to the end of the year paid for: the Profile says when it
 * ends and can resume it; cancelled again, it becomes Free when the provider's test clock reaches
 * the period's end. A second browser context of the same user sees each change without reloading.
 * Runs on the mail stack, so the receipt goes out over SMTP: once, though its first delivery
 * attempt is refused.
 */
import { expect, test, type Page } from '@playwright/test';
import { endBillingPeriod } from './support/admin.ts';
import { newUser } from './pages/login-page.ts';
import { mailStackUrl, mailSmtpPort } from './support/mail-stack.ts';
import { startSmtpTestServer, type SmtpTestServer } from './support/smtp.ts';
import { createDirectory, signUpAndSync } from './support/workspace.ts';
import { LoginPage } from './pages/login-page.ts';

test.use({ baseURL: mailStackUrl });

let smtp: SmtpTestServer;
test.beforeEach(async () => {
  smtp = await startSmtpTestServer({ port: mailSmtpPort });
});
test.afterEach(async () => {
  await smtp.close();
});

const planCard = (page: Page) => page.getByRole('region', { name: 'Your plan' });
/** The server pokes the other device; without the poke, the 30 s poll would still get there. */
const OTHER_DEVICE = { timeout: 45_000 };

test('upgrade to Pro yearly through checkout, cancel in the portal to the end of the year, resume, cancel, then Free at the period end; the other device follows', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const user = newUser('buyer');
  await signUpAndSync(page, user);
  await expect(planCard(page)).toContainText('Free Plan');
  // The sign-up confirmation goes out first; the receipt's first attempt will be refused.
  await expect.poll(() => smtp.to(user.email).length, { timeout: 30_000 }).toBe(1);
  smtp.failNext(1, 451, user.email);

  // The same user on a second device, which will never be reloaded.
  const other = await browser.newContext({ baseURL: mailStackUrl });
  const second = await other.newPage();
  const login = new LoginPage(second);
  await login.open();
  await login.signIn(user);
  await expect(second).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(planCard(second)).toContainText('Free Plan');

  // Upgrade: yearly prices, then the provider's checkout page.
  await page.goto(`/Upgrade/${user.username}`);
  await page.getByRole('radio', { name: /Yearly/ }).click();
  const pro = page.getByRole('article', { name: 'Pro' });
  await expect(pro).toContainText('$50');
  await expect(pro).toContainText('Save $10/year');
  await pro.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await expect(page).toHaveURL(/\/_checkout\/pay\/cs_test_/);
  await expect(page.getByText('Pro, billed yearly').first()).toBeVisible();
  await page.getByRole('button', { name: 'Pay $50.00' }).click();

  await expect(page).toHaveURL(new RegExp(`/Upgrade/${user.username}$`));
  await expect(page.getByText('Payment confirmed. Your Pro plan is active.')).toBeVisible();
  await expect(planCard(page)).toContainText('Pro Plan');
  await expect(planCard(page).getByRole('link', { name: 'Upgrade to Team' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Pro' })).toContainText('Current plan');

  // Pro can tag a link.
  await createDirectory(page, user.username, 'Reading');
  await page.getByRole('button', { name: 'Add Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Link' });
  await dialog.getByLabel('URL').fill('https://example.com/paid');
  await dialog.getByLabel('Title').fill('Paid feature');
  await dialog.getByLabel('Tags').fill('research');
  await dialog.getByLabel('Tags').press('Enter');
  await dialog.getByRole('button', { name: 'Add Link' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('research').first()).toBeVisible();

  // The other device follows by sync alone.
  await expect(planCard(second)).toContainText('Pro Plan', OTHER_DEVICE);

  // The Upgrade page opens on the cycle bought.
  await page.goto(`/Upgrade/${user.username}`);
  await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
  await expect(page.getByRole('article', { name: 'Team' })).toContainText('$100');

  // The receipt: refused once (451), then delivered, and only once.
  await expect
    .poll(() => smtp.to(user.email).filter((m) => m.subject === 'Your Linkboard receipt: Pro plan').length, {
      timeout: 30_000,
    })
    .toBe(1);
  expect(smtp.refused).toContainEqual({ to: user.email, code: 451 });

  // Cancel in the portal, from the profile's Subscription card: Pro stays to the end of the year paid for.
  const subscription = page.getByRole('region', { name: 'Subscription' });
  const cancelInPortal = async () => {
    await page.goto(`/Profile/${user.username}`);
    await subscription.getByRole('button', { name: 'Manage or Downgrade Plan' }).click();
    await expect(page).toHaveURL(/\/_checkout\/portal\/bps_/);
    await expect(page.getByText('Pro, billed yearly').first()).toBeVisible();
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page).toHaveURL(new RegExp(`/Profile/${user.username}$`));
  };
  await cancelInPortal();
  // A year from now, as the page writes dates: in the browser's locale (docs/product.md, Decisions).
  const endsOn = await page.evaluate(() => {
    const year = new Date();
    year.setFullYear(year.getFullYear() + 1);
    return year.toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  });
  await expect(subscription).toContainText(`Your Pro plan ends on ${endsOn}.`);
  await expect(subscription).toContainText('Pro Plan');
  await expect(planCard(page)).toContainText('Pro Plan');
  await expect(planCard(second)).toContainText('Pro Plan');

  // Resume: the plan renews again.
  await subscription.getByRole('button', { name: 'Resume' }).click();
  await expect(subscription).toContainText(`Your Pro plan renews on ${endsOn}.`);
  await expect(subscription.getByRole('button', { name: 'Resume' })).toHaveCount(0);

  // Cancelled again, it ends when the provider says the period ended (its test clock gets there now).
  await cancelInPortal();
  await expect(subscription).toContainText(`Your Pro plan ends on ${endsOn}.`);
  await endBillingPeriod(mailStackUrl, user);

  const notice = page.getByRole('dialog', { name: 'Your plan is now Free' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Everything you saved stays readable');
  await notice.getByRole('button', { name: 'OK' }).click();
  await expect(planCard(page)).toContainText('Free Plan');
  await expect(subscription).not.toContainText('Your Pro plan');

  // The other device is told too, once (its dialog hides the page from assistive tech until closed),
  // and its plan card says Free. The tagged link stays readable on Free.
  const told = second.getByRole('dialog', { name: 'Your plan is now Free' });
  await expect(told).toBeVisible(OTHER_DEVICE);
  await told.getByRole('button', { name: 'OK' }).click();
  await expect(planCard(second)).toContainText('Free Plan');
  await page.goto(`/Links/${user.username}`);
  await page.getByRole('button', { name: 'Open Reading' }).click();
  await expect(page.getByText('research').first()).toBeVisible();

  const subjects = () => smtp.to(user.email).map((m) => m.subject);
  await expect
    .poll(() => subjects().filter((s) => s === 'Your Linkboard plan is now Free').length, { timeout: 30_000 })
    .toBe(1);
  expect(subjects().filter((s) => s === 'Your Linkboard subscription is cancelled')).toHaveLength(2);
  expect(subjects().filter((s) => s === 'Your Linkboard subscription is resumed')).toHaveLength(1);
  expect(subjects().filter((s) => s === 'Your Linkboard receipt: Pro plan')).toHaveLength(1);
  await other.close();
});

test('offline, the Upgrade page opens and says checkout needs a connection', async ({ page, context }) => {
  const user = newUser('offline_buyer');
  await signUpAndSync(page, user);
  await page.goto(`/Upgrade/${user.username}`);
  await expect(page.getByRole('article', { name: 'Free' })).toContainText('Current plan');
  await context.setOffline(true);
  await expect(page.getByText('Checkout needs a connection.').first()).toBeVisible();
  await expect(
    page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Upgrade to Pro' }),
  ).toBeDisabled();
  await context.setOffline(false);
  await expect(
    page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Upgrade to Pro' }),
  ).toBeEnabled();
});

test('a return from checkout without paying says no payment was made, and the plan stays Free', async ({ page }) => {
  const user = newUser('no_pay');
  await signUpAndSync(page, user);
  await page.goto(`/Upgrade/${user.username}`);
  await page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Upgrade to Pro' }).click();
  await expect(page).toHaveURL(/\/_checkout\/pay\/cs_test_/);
  const session = /cs_test_[A-Za-z0-9_-]+/.exec(page.url())?.[0] ?? '';
  // Back to the page the provider sends a payer to, without paying (the back button, a saved link).
  await page.goto(`/Upgrade/${user.username}?checkout=success&session_id=${session}`);
  await expect(page.getByText('No payment was made. Your plan has not changed.')).toBeVisible();
  await expect(page.getByText(/Payment (received|confirmed)/)).toHaveCount(0);
  await expect(page.getByRole('article', { name: 'Free' })).toContainText('Current plan');
  await expect(planCard(page)).toContainText('Free Plan');
});
