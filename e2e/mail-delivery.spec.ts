/**
 * With an SMTP server configured, the stack delivers its mail queue, once per
 * mail, through a refused first attempt. Runs against the mail stack (e2e/support/mail-stack.ts),
 * whose SMTP_URL points at the test server this spec starts.
 */
import { expect, test } from '@playwright/test';
import { LoginPage, newUser } from './pages/login-page.ts';
import { toasts } from './pages/toasts.ts';
import { mailRetryBaseMs, mailSmtpPort, mailStackUrl } from './support/mail-stack.ts';
import { startSmtpTestServer, type SmtpTestServer } from './support/smtp.ts';

test.use({ baseURL: mailStackUrl });

let smtp: SmtpTestServer;
test.beforeEach(async () => {
  smtp = await startSmtpTestServer({ port: mailSmtpPort });
});
test.afterEach(async () => {
  await smtp.close();
});

test('the confirmation mail goes out once over SMTP though its first attempt is refused, and its link confirms the address', async ({
  page,
}) => {
  const user = newUser('smtp');
  smtp.failNext(1, 451, user.email);
  const login = new LoginPage(page);
  await login.open();
  await login.signUp(user);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(page.getByRole('region', { name: 'Confirm your e-mail address' })).toBeVisible();

  // Refused once (451, try again later), then accepted.
  await expect.poll(() => smtp.to(user.email).length, { timeout: 30_000 }).toBe(1);
  expect(smtp.refused).toEqual([{ to: user.email, code: 451 }]);
  // Longer than the next back-off and the stack's longest idle wait between rounds (5 s): still one.
  await page.waitForTimeout(mailRetryBaseMs * 2 + 6_000);
  expect(smtp.to(user.email)).toHaveLength(1);
  expect(smtp.refused).toHaveLength(1);

  const [mail] = smtp.to(user.email);
  expect(mail?.subject).toBe('Confirm your e-mail address for Linkboard');
  expect(mail?.messageId).toMatch(/^<[0-9a-f-]{36}@linkboard>$/);
  const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail?.text ?? '')?.[0];
  expect(link?.startsWith(`${mailStackUrl}/auth/v1/verify?`)).toBe(true);

  await page.goto(link as string);
  await expect(page).toHaveURL(new RegExp(`/Dashboard/${user.username}$`));
  await expect(toasts(page).getByText('Your e-mail address is confirmed.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Confirm your e-mail address' })).toBeHidden();
});
