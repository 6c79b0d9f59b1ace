/**
 * The auth server's throttles, counted in PostgreSQL (private.throttle_attempts) so they hold
 * across restarts and server instances. Each limit is {max attempts, window seconds}, keyed on
 * the client address (see client-address.ts) or on the account's e-mail address.
 *   signUp          sign-ups per client address
 *   signIn          password sign-ins per client address (successful or not)
 *   signInFailures  wrong passwords per e-mail address (a distributed guess at one account)
 *   mail            confirmation and e-mail-change mails per e-mail address
 *   verify          confirmation link openings per client address
 * LINKBOARD_AUTH_LIMITS (JSON, e.g. {"signUp":{"max":500,"seconds":3600}}) overrides them; e2e
 * runs use it because every journey signs up from 127.0.0.1.
 */
import type { Sql } from './db.ts';
import { fail } from './auth-errors.ts';
import { INTERNAL } from './client-address.ts';

export interface Limit {
  max: number;
  seconds: number;
}

export type AuthLimitName = 'signUp' | 'signIn' | 'signInFailures' | 'mail' | 'verify';
export type AuthLimits = Record<AuthLimitName, Limit>;

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  signUp: { max: 10, seconds: 3600 },
  signIn: { max: 30, seconds: 300 },
  signInFailures: { max: 10, seconds: 900 },
  mail: { max: 5, seconds: 3600 },
  verify: { max: 30, seconds: 300 },
};

export function authLimitsFrom(json: string | undefined, base: AuthLimits = DEFAULT_AUTH_LIMITS): AuthLimits {
  if (!json) return base;
  const parsed = JSON.parse(json) as Partial<Record<AuthLimitName, Partial<Limit>>>;
  const limits = { ...base };
  for (const name of Object.keys(base) as AuthLimitName[]) {
    const given = parsed[name];
    if (given) limits[name] = { ...base[name], ...given };
  }
  return limits;
}

const MESSAGES: Record<AuthLimitName, string> = {
  signUp: 'Too many sign-ups from this address. Please try again later.',
  signIn: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  signInFailures: 'Too many failed sign-in attempts for this account. Please wait a few minutes and try again.',
  mail: 'For security purposes, you can only request this once every few minutes.',
  verify: 'Too many attempts. Please wait a few minutes and try again.',
};

/** Seconds to wait before one more attempt is allowed; 0 when it is allowed now. */
export async function throttleWait(sql: Sql, limits: AuthLimits, name: AuthLimitName, subject: string) {
  // Requests made inside the process (functions calling the stack, tests) are not throttled.
  if (subject === INTERNAL) return 0;
  const { max, seconds } = limits[name];
  const { rows } = await sql.query<{ wait: number }>(
    'select private.throttle_wait($1, $2, $3, make_interval(secs => $4)) as wait',
    [`auth_${name}`, subject.toLowerCase(), max, seconds],
  );
  return Number(rows[0]?.wait ?? 0);
}

export async function recordAttempt(sql: Sql, name: AuthLimitName, subject: string): Promise<void> {
  if (subject === INTERNAL) return;
  await sql.query('select private.throttle_record($1, $2)', [`auth_${name}`, subject.toLowerCase()]);
}

/** GoTrue's answer to a throttled request: 429 over_request_rate_limit, with Retry-After. */
export async function refuseWhenThrottled(
  sql: Sql,
  limits: AuthLimits,
  name: AuthLimitName,
  subject: string,
): Promise<void> {
  const wait = await throttleWait(sql, limits, name, subject);
  if (wait > 0) throw fail(429, 'over_request_rate_limit', MESSAGES[name], {}, { 'Retry-After': String(wait) });
}

/** Checks the limit and counts this attempt. */
export async function throttle(sql: Sql, limits: AuthLimits, name: AuthLimitName, subject: string): Promise<void> {
  await refuseWhenThrottled(sql, limits, name, subject);
  await recordAttempt(sql, name, subject);
}
