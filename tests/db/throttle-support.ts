/** Helpers for the throttle tests: a request's client address, and the 429 the database raises. */
import type { Sql } from '../../supabase/local/db.ts';

/** Sets the request's X-Forwarded-For as the API gateway would (private.client_address reads it). */
export const fromAddress = (sql: Sql, address: string) =>
  sql.query("select set_config('request.headers', $1, true)", [JSON.stringify({ 'x-forwarded-for': address })]);

export interface Throttled {
  code: string | undefined;
  status: number;
  retryAfter: number;
  message: string;
}

/**
 * Awaits a statement that must be throttled and reads private.throttle_raise's error: PostgREST's
 * `sqlstate 'PGRST'` form, the body in the message and {status, headers} in the detail.
 */
export async function throttled(pending: Promise<unknown>): Promise<Throttled> {
  try {
    await pending;
  } catch (error) {
    const { code, message, detail } = error as { code?: string; message: string; detail?: string };
    const body = JSON.parse(message) as { message: string };
    const answer = JSON.parse(detail ?? '{}') as { status: number; headers: Record<string, string> };
    return { code, status: answer.status, retryAfter: Number(answer.headers['Retry-After']), message: body.message };
  }
  throw new Error('expected the statement to be throttled, but it succeeded');
}
