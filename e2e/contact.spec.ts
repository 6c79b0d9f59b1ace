import { expect, test } from '@playwright/test';

test('a message sent from the contact form arrives in the local mailbox', async ({ page, request }) => {
  await page.goto('/Contact');
  const marker = `Hello from e2e ${Date.now()}`;
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Message').fill(marker);
  await page.waitForTimeout(1300); // the form treats a submit within 1.2 s of load as spam
  await page.getByRole('button', { name: /send/i }).click();
  await expect(page.getByText('Thanks! Your message has been sent.')).toBeVisible();

  await expect
    .poll(async () => {
      const response = await request.get('/_mailbox/messages.json');
      const mails = (await response.json()) as Array<{ body: string }>;
      return mails.some((mail) => mail.body.includes(marker));
    })
    .toBe(true);

  await page.goto('/_mailbox');
  await expect(page.getByText(marker)).toBeVisible();
});
