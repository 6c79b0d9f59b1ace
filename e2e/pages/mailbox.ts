import { expect, type APIRequestContext } from '@playwright/test';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

/** Waits for the local stack's mailbox to hold a mail to `to`, and returns the newest. */
export async function mailTo(request: APIRequestContext, to: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/_mailbox/messages.json?to=${encodeURIComponent(to)}`);
      const mails = (await response.json()) as Mail[];
      found = mails[0]; // newest first
      return mails.length;
    })
    .toBeGreaterThan(0);
  return found as Mail;
}
