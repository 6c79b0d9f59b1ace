/**
 * A SendMail over SMTP, built on nodemailer (its SMTP client handles the protocol: STARTTLS,
 * authentication, pipelining, dot-stuffing, encodings). The connection is the SMTP_URL,
 * `smtp://user:pass@host:port` or `smtps://...` for TLS from the start (port 465); nodemailer's
 * query options (`?connectionTimeout=...`) apply too.
 *
 * A mail whose row carries a calendar (a time poll's pick) attaches it as invite.ics
 * (mail-calendar.ts). The Message-ID is `<row-id@linkboard>`: the one copy a crash can cause (mail-delivery.ts) has the
 * same Message-ID as the first, so a receiver can recognise it.
 *
 * Which failures are permanent: a 5xx reply to RCPT TO or DATA, where the server refused this
 * recipient or this message (RFC 5321; nodemailer already excepts 503, a session out of step).
 * Everything else is retried: 4xx replies, network and TLS errors, timeouts, and 5xx replies to
 * the connection, EHLO, AUTH or MAIL FROM, which say the configuration is wrong (a bad password,
 * a sender the relay refuses) rather than the mail: once it is fixed, the queue still goes out.
 */
import { createTransport } from 'nodemailer';
import { MailSendError, type SendMail } from './mail-delivery.ts';
import { mailAttachments } from './mail-calendar.ts';

export const DEFAULT_MAIL_FROM = 'Linkboard <no-reply@linkboard.local>';

/**
 * Bounds on one send, far below the default lease of 120 s (nodemailer's own are minutes). A URL
 * option overrides them.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Refused for good: a 5xx reply about this recipient or this message. */
export function isPermanentSmtpFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { permanent, responseCode, command } = error as {
    permanent?: unknown;
    responseCode?: unknown;
    command?: unknown;
  };
  const refused =
    typeof permanent === 'boolean'
      ? permanent
      : typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
  return refused && (command === 'RCPT TO' || command === 'DATA');
}

/** The URL without its password, for logs and error messages. */
export function redactSmtpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an SMTP URL that does not parse';
  }
}

/** Why the URL cannot be an SMTP_URL, or null when it can. */
export function smtpUrlProblem(url: string): string | null {
  return /^smtps?:\/\/[^/?#]/i.test(url)
    ? null
    : `SMTP_URL must be smtp://[user:pass@]host:port or smtps://[user:pass@]host:port, not ${redactSmtpUrl(url)}`;
}

export function smtpSender(url: string, from: string = DEFAULT_MAIL_FROM): SendMail {
  const problem = smtpUrlProblem(url);
  if (problem) throw new Error(problem);
  const transport = createTransport({ ...TIMEOUTS, url });
  return async (mail) => {
    try {
      await transport.sendMail({
        from,
        to: mail.to_address,
        subject: mail.subject,
        text: mail.body,
        messageId: `<${mail.id}@linkboard>`,
        // A time poll's pick carries its event (invite.ics, text/calendar).
        attachments: mailAttachments(mail.calendar).map((file) => ({
          filename: file.filename,
          content: file.content,
          contentType: file.content_type,
        })),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new MailSendError(message, isPermanentSmtpFailure(error));
    }
  };
}
