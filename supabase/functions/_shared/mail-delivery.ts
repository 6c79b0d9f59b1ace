/**
 * Delivery of the mail queue (public.outgoing_mail; docs/product.md, Decisions): claims due rows under
 * a lease (claim_outgoing_mail), hands each to a sender, and records the outcome
 * (finish_outgoing_mail), which retries a temporary failure with exponential back-off and gives
 * up on a permanent one. The deliver-mail function runs it; so does the local stack, through
 * that function.
 *
 * Exactly once per row: the claim skips rows another sender holds, and a finish applies only to
 * the claim it belongs to. The one window for a second copy is a sender that dies after the mail
 * server accepted a mail and before it recorded that: once the lease passes, the row is sent
 * again. The sender sets the Message-ID from the row's id, so a receiver can drop that copy.
 *
 * The rows of a batch are sent concurrently, so a batch takes about as long as its slowest mail;
 * the lease must outlast that (smtpSender bounds each send well below the default lease).
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** A claimed row, as claim_outgoing_mail returns it. */
export interface QueuedMail {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  /** This attempt's number, from 1. */
  attempts: number;
  /** The event the mail attaches as invite.ics (mail-calendar.ts), or null. */
  calendar?: unknown;
}

/**
 * What a sender throws when a mail did not go: `permanent` when the mail server refused this
 * mail for good (retrying would get the same answer), else it is retried later.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}

/** Hands one mail to the provider; resolves once the provider accepted it. */
export type SendMail = (mail: QueuedMail) => Promise<void>;

export interface DrainOptions {
  /** A supabase-js client with the service-role key (claim and finish are the service role's only). */
  client: Pick<SupabaseClient, 'rpc'>;
  send: SendMail;
  /** Rows claimed (and sent concurrently) per call, 1 to 100. */
  batchSize?: number;
  /** How long a claim holds its rows, in seconds (1 to 3600); longer than the slowest send. */
  leaseSeconds?: number;
  /** The first retry's delay in milliseconds, doubled per attempt (at most 6 hours). */
  retryBaseMs?: number;
  /** The attempt after which a temporary failure counts as final, 1 to 100. */
  maxAttempts?: number;
}

export interface DrainResult {
  /** Accepted by the mail server. */
  sent: number;
  /** Failed for now; queued again for a later attempt. */
  retried: number;
  /** Given up: refused for good, or out of attempts. */
  failed: number;
}

export const MAIL_DELIVERY_DEFAULTS = {
  batchSize: 10,
  leaseSeconds: 120,
  retryBaseMs: 30_000,
  maxAttempts: 10,
} as const;

/** MAIL_RETRY_BASE_MS as milliseconds (100 ms to a day; unset: the default), or why it is not usable. */
export function parseRetryBaseMs(value: string | undefined): number | string {
  if (value === undefined || value.trim() === '') return MAIL_DELIVERY_DEFAULTS.retryBaseMs;
  const ms = Number(value.trim());
  if (!/^\d+$/.test(value.trim()) || ms < 100 || ms > 86_400_000) {
    return `MAIL_RETRY_BASE_MS must be a whole number of milliseconds from 100 to 86400000, not "${value}"`;
  }
  return ms;
}

function failureOf(error: unknown): { message: string; permanent: boolean } {
  const message = error instanceof Error ? error.message : String(error);
  const permanent =
    typeof error === 'object' && error !== null && (error as { permanent?: unknown }).permanent === true;
  return { message: message || 'unknown error', permanent };
}

/** Claims one batch of due mail, sends it, records each outcome, and counts them. */
export async function drainOutgoingMail(options: DrainOptions): Promise<DrainResult> {
  const { client, send } = options;
  const settings = { ...MAIL_DELIVERY_DEFAULTS, ...definedOnly(options) };
  const claimed = await client.rpc('claim_outgoing_mail', {
    p_limit: settings.batchSize,
    p_lease_seconds: settings.leaseSeconds,
  });
  if (claimed.error) throw new Error(`claim_outgoing_mail failed: ${claimed.error.message}`);
  const rows = (claimed.data ?? []) as QueuedMail[];

  const result: DrainResult = { sent: 0, retried: 0, failed: 0 };
  const finished = await Promise.allSettled(
    rows.map(async (mail) => {
      let failure: { message: string; permanent: boolean } | null = null;
      try {
        await send(mail);
      } catch (error) {
        failure = failureOf(error);
      }
      const { data, error } = await client.rpc('finish_outgoing_mail', {
        p_id: mail.id,
        p_ok: failure === null,
        p_error: failure?.message ?? null,
        p_permanent: failure?.permanent ?? false,
        p_retry_base_seconds: settings.retryBaseMs / 1000,
        p_max_attempts: settings.maxAttempts,
        p_attempt: mail.attempts,
      });
      if (error) throw new Error(`finish_outgoing_mail for ${mail.id} failed: ${error.message}`);
      // null: the lease ran out and another sender holds the row now; its outcome counts there.
      if (data === 'sent') result.sent++;
      else if (data === 'queued') result.retried++;
      else if (data === 'failed') result.failed++;
    }),
  );
  const unrecorded = finished.find((outcome) => outcome.status === 'rejected');
  if (unrecorded) throw unrecorded.reason;
  return result;
}

function definedOnly(options: DrainOptions): Partial<typeof MAIL_DELIVERY_DEFAULTS> {
  const { batchSize, leaseSeconds, retryBaseMs, maxAttempts } = options;
  return Object.fromEntries(
    Object.entries({ batchSize, leaseSeconds, retryBaseMs, maxAttempts }).filter(([, value]) => value !== undefined),
  );
}
