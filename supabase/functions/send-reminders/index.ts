/**
 * send-reminders: pushes the reminders now due to every device whose owner turned
 * reminders on, once per device and occurrence, and answers the counts {sent, failed, gone} (gone:
 * devices the push service says no longer exist, now forgotten). A scheduler calls it every
 * minute or more often: hosted, pg_cron with pg_net (docs/reminders.md); on the local stack its
 * own scheduler (supabase/local/reminder-scheduler.ts).
 * POST, with the service-role key or REMINDERS_CRON_SECRET (auth.ts); anything else is 401.
 * VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY sign the pushes, VAPID_SUBJECT (mailto: or https:) names
 * the sender (default mailto:SUPPORT_EMAIL). Without the keys nothing is claimed:
 * {sent: 0, failed: 0, gone: 0, skipped: 'no VAPID keys'}.
 */
import type { FunctionEnv } from '../_shared/types.ts';
import { jsonResponder } from '../_shared/http.ts';
import { serverClient } from '../_shared/client.ts';
import { sendDueReminders } from '../_shared/reminder-delivery.ts';
import { webPushSender } from '../_shared/web-push-sender.ts';
import { maySendReminders } from './auth.ts';
import { serveOnDeno } from '../_shared/serve.ts';

// Called by schedulers, never by a page: no CORS headers.
const json = jsonResponder({});

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method !== 'POST')
    return json({ error: 'Method not allowed: send-reminders takes POST' }, 405, { Allow: 'POST' });
  if (!(await maySendReminders(req, env))) {
    return json({ error: 'Unauthorized: send the service-role key or the REMINDERS_CRON_SECRET' }, 401);
  }
  const publicKey = env.VAPID_PUBLIC_KEY;
  const privateKey = env.VAPID_PRIVATE_KEY;
  if (!publicKey || !privateKey) return json({ sent: 0, failed: 0, gone: 0, skipped: 'no VAPID keys' });
  const subject = env.VAPID_SUBJECT || `mailto:${env.SUPPORT_EMAIL || 'support@linkboard.local'}`;

  const client = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, env.fetch);
  // Push services are on the internet: the global fetch, never the in-process one of env.fetch.
  const send = webPushSender({ subject, publicKey, privateKey });
  try {
    return json(await sendDueReminders({ client, send, siteUrl: env.SITE_URL || new URL(req.url).origin }));
  } catch (error) {
    console.error('[send-reminders] the round failed:', error);
    return json({ error: 'The reminders could not be claimed; see the function log' }, 502);
  }
}

serveOnDeno(handler);
