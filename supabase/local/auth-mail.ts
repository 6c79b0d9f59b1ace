/**
 * The auth server's mail: the confirmation link of a sign-up, the link that confirms an e-mail
 * change (to the new address) and a notice of it (to the old one). Queued in public.outgoing_mail
 * like every mail of the stack. Links carry a random token; only its SHA-256 is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from './db.ts';
import { CONFIRMATION_LINK_HOURS } from './auth-users.ts';

export type VerifyType = 'signup' | 'email_change';

export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Where a confirmation link points: the stack's verify route on the site's own origin. */
export function verifyLink(siteUrl: string, type: VerifyType, token: string): string {
  const link = new URL('/auth/v1/verify', siteUrl);
  link.searchParams.set('token', token);
  link.searchParams.set('type', type);
  return link.toString();
}

async function queue(sql: Sql, to: string, subject: string, body: string, sender: string | null): Promise<void> {
  await sql.query('insert into public.outgoing_mail (to_address, subject, body, sender_id) values ($1, $2, $3, $4)', [
    to,
    subject,
    body,
    sender,
  ]);
}

export function mailConfirmation(sql: Sql, siteUrl: string, to: string, userId: string, token: string) {
  return queue(
    sql,
    to,
    'Confirm your e-mail address for Linkboard',
    `Welcome to Linkboard!\n\nOpen this link to confirm your e-mail address:\n${verifyLink(siteUrl, 'signup', token)}\n\n` +
      `Directories that others share with this address appear in your workspace once it is confirmed.\n` +
      `The link works for ${CONFIRMATION_LINK_HOURS} hours. If you did not sign up, ignore this mail.`,
    userId,
  );
}

export async function mailEmailChange(
  sql: Sql,
  siteUrl: string,
  change: { userId: string; oldEmail: string | null; newEmail: string; token: string },
): Promise<void> {
  await queue(
    sql,
    change.newEmail,
    'Confirm your new e-mail address for Linkboard',
    `Open this link to make ${change.newEmail} the e-mail address of your Linkboard account:\n` +
      `${verifyLink(siteUrl, 'email_change', change.token)}\n\n` +
      `Your address changes only once you open it. The link works for ${CONFIRMATION_LINK_HOURS} hours. ` +
      `If you did not ask for this, ignore this mail.`,
    change.userId,
  );
  if (change.oldEmail) {
    await queue(
      sql,
      change.oldEmail,
      'Your Linkboard e-mail address is about to change',
      `Someone signed in to your Linkboard account asked to change its e-mail address to ${change.newEmail}.\n` +
        `Nothing changes until that address confirms it. If this was not you, sign in and change your password.`,
      change.userId,
    );
  }
}
