/**
 * Who may run deliver-mail: a caller showing the service-role key (Authorization: Bearer), or the
 * MAIL_CRON_SECRET (as the bearer token or in X-Mail-Cron-Secret, for a scheduler that must send
 * a JWT the gateway accepts, such as the anon key, in Authorization). Compared in constant time.
 */
import type { FunctionEnv } from '../_shared/types.ts';

/** A cron secret shorter than this is treated as unset (it would be guessable). */
export const MIN_CRON_SECRET_LENGTH = 16;

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** Whether a equals b, in a time that depends on neither (both are hashed to 32 bytes first). */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let difference = 0;
  for (let i = 0; i < x.length; i++) difference |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return difference === 0;
}

export async function mayDeliverMail(req: Request, env: FunctionEnv): Promise<boolean> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get('Authorization') ?? '')?.[1];
  const cronSecret = env.MAIL_CRON_SECRET ?? '';
  const presented = req.headers.get('X-Mail-Cron-Secret');
  const checks: Promise<boolean>[] = [];
  if (bearer && env.SUPABASE_SERVICE_ROLE_KEY) checks.push(sameSecret(bearer, env.SUPABASE_SERVICE_ROLE_KEY));
  if (cronSecret.length >= MIN_CRON_SECRET_LENGTH) {
    if (bearer) checks.push(sameSecret(bearer, cronSecret));
    if (presented) checks.push(sameSecret(presented, cronSecret));
  }
  return (await Promise.all(checks)).some(Boolean);
}
