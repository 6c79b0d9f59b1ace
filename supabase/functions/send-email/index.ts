/**
 * send-email: queues a mail in public.outgoing_mail (delivered by the deliver-mail function when
 * an SMTP server is configured, else shown by the local mailbox).
 * POST {to, subject, body} (src/domain/function-inputs.ts). Anonymous callers may write only to the support address; signed-in
 * callers (bearer access token) to support, their own confirmed address, or someone they invited
 * to a directory they own (enqueue_mail decides; anything else is 403, nothing queued). Text with
 * a NUL character or a lone surrogate is a 400, checked before anything else.
 * enqueue_mail throttles in the database:
 * 50 mails an hour per signed-in sender, 10 an hour per client address for anonymous mail (the
 * address the gateway set in X-Forwarded-For, never one the client chose); over a limit the
 * answer is 429 with Retry-After.
 */
import type { FunctionEnv } from '../_shared/types.ts';
import { serverClient } from '../_shared/client.ts';
import { clientAddress, gatewayFetch, isThrottled, throttledAnswer } from '../_shared/gateway.ts';
import { sessionUser } from '../_shared/session.ts';
import { corsHeaders, json } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';
import { readJson } from '../_shared/input.ts';
import { MAIL_BODY_MAX, MAIL_SUBJECT_MAX, mailInput } from '../../../src/domain/function-inputs.ts';

export const MAX_SUBJECT = MAIL_SUBJECT_MAX;
export const MAX_BODY = MAIL_BODY_MAX;
export const DEFAULT_SUPPORT_EMAIL = 'support@linkboard.local';

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405, { Allow: 'POST, OPTIONS' });

  // Text the database cannot store (a NUL, a lone surrogate) is refused here, not by enqueue_mail.
  const input = await readJson(req, mailInput);
  if (!input.ok) return json({ error: input.error }, 400);
  const mail = input.value;

  const user = await sessionUser(req, env);
  if (user === 'invalid') return json({ error: 'Invalid or expired session' }, 401);
  const sender = user?.id ?? null;
  const support = (env.SUPPORT_EMAIL || DEFAULT_SUPPORT_EMAIL).toLowerCase();
  const toSupport = mail.to.toLowerCase() === support;
  if (sender === null && !toSupport) {
    return json({ error: 'Sign in to send mail to this address; anonymous messages may go only to support' }, 403);
  }

  const gateway = gatewayFetch(env.fetch, null);
  const service = serverClient(env.SUPABASE_URL, env.SUPABASE_SERVICE_ROLE_KEY, gateway.fetch);
  const { data, error, status } = await service.rpc('enqueue_mail', {
    p_to: mail.to,
    p_subject: mail.subject,
    p_body: mail.body,
    p_sender: sender,
    // Never null for a visitor: a null address is the server's own mail, which is not limited.
    p_client: clientAddress(req) ?? 'unknown',
    p_support: toSupport,
  });
  if (isThrottled(error, status)) {
    const throttled = throttledAnswer(error, gateway.retryAfter(), 'Too many emails sent. Please try again later.');
    return json(throttled.body, 429, throttled.headers);
  }
  if (error && status === 403) return json({ error: error.message }, 403);
  // Input the database refused is the caller's mistake, never a failure of the queue.
  if (error && status === 400) return json({ error: error.message }, 400);
  if (error) {
    console.error('[send-email] enqueue_mail failed:', error);
    return json({ error: 'The mail could not be queued' }, 502);
  }
  return json({ ok: true, id: data as string });
}

serveOnDeno(handler);
