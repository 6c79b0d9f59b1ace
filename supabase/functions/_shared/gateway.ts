/**
 * What a function passes on from the API gateway, and reads back from the database's throttles.
 *
 * The gateway (hosted Supabase's, or the local stack) sets X-Forwarded-For from the connection and
 * replaces whatever the client sent, so its first entry is the client address. A function that
 * calls the API on a visitor's behalf forwards it, so the database's throttles key on the visitor
 * rather than on the function. A throttled RPC answers 429 with Retry-After (PostgREST's
 * `raise sqlstate 'PGRST'` form: see private.throttle_raise), which the function answers in turn.
 */

/** The client address the gateway set: the first X-Forwarded-For entry; null without one. */
export function clientAddress(req: Request): string | null {
  const first = req.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return first ? first.slice(0, 100) : null;
}

export interface GatewayFetch {
  fetch: typeof fetch;
  /** The Retry-After of the last answer, if it had one. */
  retryAfter(): string | null;
}

/** A fetch that forwards the client address and remembers the last answer's Retry-After. */
export function gatewayFetch(fetchImpl: typeof fetch, address: string | null): GatewayFetch {
  let retryAfter: string | null = null;
  return {
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
      if (address) headers.set('X-Forwarded-For', address);
      const response = await fetchImpl(input, { ...init, headers });
      retryAfter = response.headers.get('Retry-After');
      return response;
    },
    retryAfter: () => retryAfter,
  };
}

/** A PostgREST error from supabase-js, as far as these functions read it. */
export interface RpcError {
  code?: string;
  message: string;
  hint?: string | null;
}

/** Whether an RPC answer is the database's throttle (429). */
export function isThrottled(error: RpcError | null, status: number): boolean {
  return status === 429 || error?.hint === 'throttled' || error?.code === 'over_request_rate_limit';
}

/** The function's 429: the database's plain message, and its Retry-After (an hour when it gave none). */
export function throttledAnswer(
  error: RpcError | null,
  retryAfter: string | null,
  fallback: string,
): { body: { error: string; reason: 'throttled' }; headers: Record<string, string> } {
  const seconds = retryAfter && /^\d+$/.test(retryAfter) ? retryAfter : '3600';
  return { body: { error: error?.message || fallback, reason: 'throttled' }, headers: { 'Retry-After': seconds } };
}
