/**
 * deliver-mail: delivers one batch of the mail queue (public.outgoing_mail) through the SMTP
 * server at SMTP_URL, and answers the counts {sent, retried, failed}. A scheduler calls it: on
 * hosted Supabase pg_cron with pg_net every minute (docs/deploy.md), on the local stack its own
 * drainer (supabase/local/mail-drainer.ts).
 * POST, with the service-role key or MAIL_CRON_SECRET (auth.ts); anything else is 401. Without
 * SMTP_URL it delivers nothing and says so: {sent: 0, retried: 0, failed: 0, skipped: 'no provider'}.
 * MAIL_FROM is the From (default `Linkboard <no-reply@linkboard.local>`); MAIL_RETRY_BASE_MS the
 * first retry's delay (default 30000, doubled per attempt).
 */
import type { FunctionEnv } from '../_shared/types.ts';
import { jsonResponder } from '../_shared/http.ts';
import { serverClient } from '../_shared/client.ts';
import { drainOutgoingMail, parseRetryBaseMs } from '../_shared/mail-delivery.ts';
import { DEFAULT_MAIL_FROM, redactSmtpUrl, smtpSender } from '../_shared/smtp-sender.ts';
import { mayDeliverMail } from './auth.ts';
import { serveOnDeno } from '../_shared/serve.ts';

// Called by schedulers, never by a page: no CORS headers.
const json = jsonResponder({});

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method !== 'POST')
    return json({ error: 'Method not allowed: deliver-mail takes POST' }, 405, { Allow: 'POST' });
  if (!(await mayDeliverMail(req, env))) {
    return json({ error: 'Unauthorized: send the service-role key or the MAIL_CRON_SECRET' }, 401);
  }
  if (!env.SMTP_URL) return json({ sent: 0, retried: 0, failed: 0, skipped: 'no provider' });

  const retryBase = parseRetryBaseMs(env.MAIL_RETRY_BASE_MS);
  if (typeof retryBase === 'string') return json({ error: retryBase }, 500);
  let send;
  try {
    send = smtpSender(env.SMTP_URL, env.MAIL_FROM || DEFAULT_MAIL_FROM);
  } catch (error) {
    return json({ error: error instanceof Error ? error.message : 'SMTP_URL is not usable' }, 500);
  }
  const client = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, env.fetch);
  try {
    return json(await drainOutgoingMail({ client, send, retryBaseMs: retryBase }));
  } catch (error) {
    console.error(`[deliver-mail] the queue could not be drained (SMTP ${redactSmtpUrl(env.SMTP_URL)}):`, error);
    return json({ error: 'The mail queue could not be read or updated; see the function log' }, 502);
  }
}

serveOnDeno(handler);
