/**
 * Who may run send-reminders: a caller showing the service-role key (Authorization: Bearer), or
 * the REMINDERS_CRON_SECRET (as the bearer token or in X-Reminders-Cron-Secret, for a scheduler
 * that must send a JWT the gateway accepts, such as the anon key, in Authorization). Compared in
 * constant time, as deliver-mail does.
 */
import type { FunctionEnv } from '../_shared/types.ts';
import { MIN_CRON_SECRET_LENGTH, sameSecret } from '../deliver-mail/auth.ts';

export async function maySendReminders(req: Request, env: FunctionEnv): Promise<boolean> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get('Authorization') ?? '')?.[1];
  const cronSecret = env.REMINDERS_CRON_SECRET ?? '';
  const presented = req.headers.get('X-Reminders-Cron-Secret');
  const checks: Promise<boolean>[] = [];
  if (bearer && env.SUPABASE_SERVICE_ROLE_KEY) checks.push(sameSecret(bearer, env.SUPABASE_SERVICE_ROLE_KEY));
  if (cronSecret.length >= MIN_CRON_SECRET_LENGTH) {
    if (bearer) checks.push(sameSecret(bearer, cronSecret));
    if (presented) checks.push(sameSecret(presented, cronSecret));
  }
  return (await Promise.all(checks)).some(Boolean);
}
