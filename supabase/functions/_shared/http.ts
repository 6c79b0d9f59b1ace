/** What every function answers with: CORS headers, JSON bodies, and calls made as the signed-in user. */

export interface CorsOptions {
  /** The methods the function answers, besides OPTIONS. */
  methods: string;
  /** Request headers the page may send beyond the Supabase client's own. */
  allowHeaders?: readonly string[];
  /** Answer headers the page may read (a throttled answer's Retry-After). */
  exposeHeaders?: readonly string[];
}

export function corsHeadersFor({
  methods,
  allowHeaders = [],
  exposeHeaders = [],
}: CorsOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': ['authorization', 'x-client-info', 'apikey', 'content-type', ...allowHeaders].join(
      ', ',
    ),
    'Access-Control-Allow-Methods': `${methods}, OPTIONS`,
  };
  if (exposeHeaders.length > 0) headers['Access-Control-Expose-Headers'] = exposeHeaders.join(', ');
  return headers;
}

/** A JSON answer with the function's CORS headers; never cached (answers depend on who asks). */
export function jsonResponder(corsHeaders: Record<string, string>) {
  return (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
    new Response(JSON.stringify(body), {
      status,
      headers: { ...corsHeaders, 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers },
    });
}

/** The bearer token of the request, unless it is missing or only the anon key. */
export function userToken(req: Request, anonKey: string): string | null {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get('Authorization') ?? '')?.[1];
  return token && token !== anonKey ? token : null;
}

/** A fetch that calls the API as the signed-in user (supabase-js would otherwise send the anon key). */
export function fetchAs(fetchImpl: typeof fetch, token: string | null): typeof fetch {
  if (!token) return fetchImpl;
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('Authorization', `Bearer ${token}`);
    return fetchImpl(input, { ...init, headers });
  };
}
