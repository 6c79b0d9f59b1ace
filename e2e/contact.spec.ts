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

test('a message holding a NUL character or half of an emoji is refused with words, and nothing is sent', async ({
  page,
}) => {
  await page.goto('/Contact');
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.waitForTimeout(1300); // the form treats a submit within 1.2 s of load as spam
  for (const pasted of ['Hello\u0000there', 'Cut emoji \ud83d']) {
    // What a paste leaves in the field (the page's own strings keep a NUL and a lone surrogate).
    await page.getByLabel('Message').evaluate((area: HTMLTextAreaElement, value) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
      setter?.call(area, value);
      area.dispatchEvent(new Event('input', { bubbles: true }));
    }, pasted);
    await page.getByRole('button', { name: /send/i }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'A character in message cannot be saved (a null character or half of an emoji). Remove it and try again.',
    );
  }
  await expect(page.getByText('Thanks! Your message has been sent.')).toHaveCount(0);
});
