/**
 * The e2e run's second stack, which delivers its mail over SMTP (playwright.config.ts starts it):
 * the main stack's settings on E2E_PORT + 1, with SMTP_URL pointing at E2E_PORT + 2, where a spec
 * starts its own SMTP test server (e2e/support/smtp.ts) for as long as it needs one. Until one
 * listens, the stack's deliveries fail and are retried, so nothing is lost. It has no mailbox:
 * the SMTP test server is where its mail is read.
 */
export const e2ePort = Number(process.env.E2E_PORT ?? 4317);

/** Where the mail stack serves the app and the API. */
export const mailStackPort = e2ePort + 1;
export const mailStackUrl = `http://127.0.0.1:${mailStackPort}`;

/** Where the mail stack delivers: a spec's SMTP test server listens here. */
export const mailSmtpPort = e2ePort + 2;

/** The mail stack's first retry delay (MAIL_RETRY_BASE_MS), short so a retry shows within a spec. */
export const mailRetryBaseMs = 500;
