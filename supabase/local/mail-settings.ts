/**
 * How the local stack delivers the mail queue: with an SMTP_URL, its drainer hands every queued
 * mail to that server (through the deliver-mail function) and the mailbox is off; without one the
 * mail stays queued and the mailbox shows it. Read from the environment by server.ts main();
 * startStack takes it as an option (tests).
 */
import { parseRetryBaseMs } from '../functions/_shared/mail-delivery.ts';
import { smtpUrlProblem } from '../functions/_shared/smtp-sender.ts';

export interface MailSettings {
  /** smtp://user:pass@host:port or smtps://...; unset: no delivery, the local mailbox instead. */
  smtpUrl?: string;
  /** The From of delivered mail; default `Linkboard <no-reply@linkboard.local>`. */
  from?: string;
  /** A secret a scheduler may show deliver-mail instead of the service-role key. */
  cronSecret?: string;
  /** The first retry's delay in milliseconds (doubled per attempt); default 30000. */
  retryBaseMs?: number;
}

/** SMTP_URL, MAIL_FROM, MAIL_CRON_SECRET and MAIL_RETRY_BASE_MS; throws with a clear message on a bad value. */
export function mailSettingsFrom(env: NodeJS.ProcessEnv): MailSettings {
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  const problem = smtpUrl ? smtpUrlProblem(smtpUrl) : null;
  if (problem) throw new Error(problem);
  const retry = parseRetryBaseMs(env.MAIL_RETRY_BASE_MS);
  if (typeof retry === 'string') throw new Error(retry);
  return {
    smtpUrl,
    from: env.MAIL_FROM?.trim() || undefined,
    cronSecret: env.MAIL_CRON_SECRET || undefined,
    retryBaseMs: retry,
  };
}
