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

/** The link of the newest confirmation mail to `to` (sign-up or e-mail change), as the mail shows it. */
export async function confirmationLink(
  request: APIRequestContext,
  to: string,
  type: 'signup' | 'email_change' = 'signup',
): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/_mailbox/messages.json?to=${encodeURIComponent(to)}`);
      const mails = (await response.json()) as Mail[];
      link = mails
        .map((mail) => /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.body)?.[0])
        .find((found) => found && new URL(found).searchParams.get('type') === type);
      return link ?? '';
    })
    .toMatch(/verify/);
  return link as string;
}
