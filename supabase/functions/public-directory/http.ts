export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, x-directory-password',
  // A throttled answer's wait, for the page to show.
  'Access-Control-Expose-Headers': 'Retry-After',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
};

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
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
