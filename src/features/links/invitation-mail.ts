/**
 * Invitation mails (spec 7.1): composed when the owner invites, kept in the user's `meta` table,
 * and sent only once the server has recorded the invite, so an invite made offline is mailed
 * after it syncs and an invite the server refuses is never mailed.
 */
import type { LinkboardDb } from '../../data/db.ts';
import type { MemberRole } from '../../domain/validation.ts';
import { directoryPath } from './link-filters.ts';

export interface InvitationMail {
  to: string;
  subject: string;
  body: string;
}

/** A mail waiting for its invite to reach the server (a `meta` row's value). */
export interface PendingInvitationMail {
  memberId: string;
  mail: InvitationMail;
  /** Failed send attempts so far. */
  attempts: number;
}

export type SendMail = (mail: InvitationMail) => Promise<boolean>;

export const PENDING_MAIL_PREFIX = 'invitation-mail:';
/** A mail whose sending failed this many times is given up (spec 8: a mail failure never blocks). */
export const MAX_MAIL_ATTEMPTS = 3;

const keyOf = (memberId: string) => `${PENDING_MAIL_PREFIX}${memberId}`;

export interface InvitationInput {
  origin: string;
  ownerUsername: string;
  directory: { id: string; name: string };
  to: string;
  role: MemberRole;
  /** Who invites, as the mail names them. */
  inviter: string;
}

/** The mail with the absolute link {origin}/Links/{ownerUsername}/dir/{id}. */
export function invitationMail(input: InvitationInput): InvitationMail {
  const url = `${input.origin}${directoryPath(input.ownerUsername, input.directory.id)}`;
  const role = input.role === 'editor' ? 'an Editor' : 'a Viewer';
  return {
    to: input.to,
    subject: `You have been invited to ${input.directory.name} on Linkboard`,
    body: [
      `${input.inviter} invited you to the directory "${input.directory.name}" on Linkboard as ${role}.`,
      '',
      `Open it here: ${url}`,
      '',
      `Sign in, or create an account, with this email address (${input.to}) to see it.`,
    ].join('\n'),
  };
}

/** Keeps the mail of a queued member.invite until the invite is on the server. */
export async function queueInvitationMail(db: LinkboardDb, memberId: string, mail: InvitationMail): Promise<void> {
  const value: PendingInvitationMail = { memberId, mail, attempts: 0 };
  await db.meta.put({ key: keyOf(memberId), value });
}

export async function pendingInvitationMails(db: LinkboardDb): Promise<PendingInvitationMail[]> {
  const rows = await db.meta.where('key').startsWith(PENDING_MAIL_PREFIX).toArray();
  return rows.map((row) => row.value as PendingInvitationMail);
}

export type MailDecision = 'send' | 'wait' | 'drop';

/**
 * What to do with a pending mail, from the local state:
 * - its member.invite is still queued (pending or failed): wait;
 * - the member row is gone (the server refused the invite, or it was discarded or removed): drop;
 * - the member row is the server's (it carries the server's txid): send;
 * - otherwise (an optimistic row whose mutation left the queue some other way): wait for a pull.
 */
export async function decide(db: LinkboardDb, memberId: string): Promise<MailDecision> {
  const queued = await db.outbox.filter((row) => row.name === 'member.invite' && row.args.id === memberId).count();
  if (queued > 0) return 'wait';
  const member = await db.directory_members.get(memberId);
  if (!member) return 'drop';
  return member.txid ? 'send' : 'wait';
}

export interface FlushResult {
  sent: string[];
  dropped: string[];
  failed: string[];
}

/**
 * Sends every pending mail whose invite the server has recorded. Each mail is claimed (removed
 * from `meta`) in the same transaction that checks it, so two flushes (tabs, the dialog and the
 * post-sync hook) never send it twice. A failed send is put back and retried at a later flush,
 * up to MAX_MAIL_ATTEMPTS; then it is given up with a warning.
 */
export async function flushInvitationMails(db: LinkboardDb, send: SendMail): Promise<FlushResult> {
  const result: FlushResult = { sent: [], dropped: [], failed: [] };
  for (const pending of await pendingInvitationMails(db)) {
    const key = keyOf(pending.memberId);
    const claimed = await db.transaction('rw', db.meta, db.outbox, db.directory_members, async () => {
      const row = await db.meta.get(key);
      if (!row) return null;
      const decision = await decide(db, pending.memberId);
      if (decision === 'wait') return null;
      await db.meta.delete(key);
      return decision === 'send' ? (row.value as PendingInvitationMail) : 'dropped';
    });
    if (claimed === null) continue;
    if (claimed === 'dropped') {
      result.dropped.push(pending.memberId);
      continue;
    }
    if (await send(claimed.mail)) {
      result.sent.push(pending.memberId);
      continue;
    }
    result.failed.push(pending.memberId);
    const attempts = claimed.attempts + 1;
    if (attempts < MAX_MAIL_ATTEMPTS) await db.meta.put({ key, value: { ...claimed, attempts } });
    else console.warn(`Invitation mail to ${claimed.mail.to} given up after ${attempts} attempts`);
  }
  return result;
}
