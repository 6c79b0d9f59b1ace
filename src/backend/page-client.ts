/**
 * The page's backend client: supabase-js's own parts, each from its package, without the Realtime
 * and Storage clients supabase-js's createClient always builds (the app syncs through RPCs, stores
 * no files, and loads its Realtime client after the first paint, src/backend/realtime-client.ts):
 * about 20 KB of gzipped JavaScript less for the first sync.
 * It is wired as createClient wires them: the auth client keeps the session, every PostgREST and
 * Edge Function request carries the anon key and the session's access token (or the anon key).
 */
import { AuthClient, type GoTrueClient } from '@supabase/auth-js';
import type { FunctionsClient } from '@supabase/functions-js';
import { PostgrestClient, type PostgrestError } from '@supabase/postgrest-js';
import { authOptions } from './auth-options.ts';
import { anonKey, backendUrl } from './config.ts';

export interface RpcAnswer {
  data: unknown;
  error: PostgrestError | null;
  status: number;
}

/** What the app calls: auth, RPCs and Edge Functions (a supabase-js client is one too). */
export interface LinkboardClient {
  auth: GoTrueClient;
  rpc(fn: string, args?: Record<string, unknown>): PromiseLike<RpcAnswer>;
  functions: Pick<FunctionsClient, 'invoke'>;
}

export function createPageClient(options: { autoRefreshToken: boolean; key?: string }): LinkboardClient {
  const key = options.key || anonKey;
  const base = backendUrl.endsWith('/') ? backendUrl : `${backendUrl}/`;
  const auth = new AuthClient({
    url: new URL('auth/v1', base).href,
    headers: { Authorization: `Bearer ${key}`, apikey: key },
    ...authOptions(options.autoRefreshToken),
  });
  // supabase-js's fetchWithAuth: the caller's headers win, else the key and the session's token.
  const authedFetch: typeof fetch = async (input, init) => {
    const token = (await auth.getSession()).data.session?.access_token ?? key;
    const headers = new Headers(init?.headers);
    if (!headers.has('apikey')) headers.set('apikey', key);
    if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const rest = new PostgrestClient(new URL('rest/v1', base).href, { fetch: authedFetch });
  // The Edge Functions client (billing, mail) loads with its first call.
  let functions: Promise<FunctionsClient> | null = null;
  const loadFunctions = () =>
    (functions ??= import('@supabase/functions-js').then(
      ({ FunctionsClient }) => new FunctionsClient(new URL('functions/v1', base).href, { customFetch: authedFetch }),
    ));
  return {
    auth,
    rpc: (fn, args = {}) => rest.rpc(fn, args),
    functions: {
      invoke: (async (name: string, invokeOptions?: Parameters<FunctionsClient['invoke']>[1]) =>
        (await loadFunctions()).invoke(name, invokeOptions)) as FunctionsClient['invoke'],
    },
  };
}
