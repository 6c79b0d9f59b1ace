/**
 * public-directory (spec 7.1): GET ?dirId={id} → 200 {directory, links} of a public directory,
 * or one the caller (bearer access token) owns or is a member of. A password-protected one
 * needs the password in the X-Directory-Password header. 400 for a malformed id; 404 when
 * missing, deleted or private; 403 when the password is missing or wrong; 429 (with Retry-After)
 * after too many wrong passwords; 401 for a bad token. The database counts wrong passwords per
 * client address, so the call forwards the address the gateway set.
 */
import type { FunctionEnv } from '../_shared/types.ts';
import { serverClient } from '../_shared/client.ts';
import { clientAddress, gatewayFetch, isThrottled, throttledAnswer } from '../_shared/gateway.ts';
import { corsHeaders, fetchAs, json, userToken } from './http.ts';
import { serveOnDeno } from '../_shared/serve.ts';
import { readQuery } from '../_shared/input.ts';
import { directoryQuery } from '../_shared/directory-query.ts';

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

export default async function handler(req: Request, env: FunctionEnv): Promise<Response> {
  if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders });
  if (req.method !== 'GET') return json({ error: 'Method not allowed' }, 405, { Allow: 'GET, OPTIONS' });

  const query = readQuery(req.url, directoryQuery);
  if (!query.ok) return json({ error: query.error }, 400);
  const { dirId } = query.value;
  const password = req.headers.get('X-Directory-Password');

  try {
    const token = userToken(req, env.SUPABASE_ANON_KEY);
    const gateway = gatewayFetch(fetchAs(env.fetch, token), clientAddress(req));
    const client = serverClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, gateway.fetch);
    const { data, error, status } = await client.rpc('get_public_directory', {
      p_directory_id: dirId,
      p_password: password,
    });
    // A wrong password is not raised (the attempt is kept): it is PostgREST's error body with
    // response.status 403, which reads as the data of a 200 where that status is not applied.
    const answer = data as { directory?: unknown; links?: unknown; hint?: string } | null;
    if (!error && answer?.hint !== 'forbidden') return json({ directory: answer?.directory, links: answer?.links });
    if (isThrottled(error, status)) {
      const throttled = throttledAnswer(error, gateway.retryAfter(), TOO_MANY);
      return json(throttled.body, 429, throttled.headers);
    }
    switch (error?.hint ?? answer?.hint) {
      case 'not_found':
        return json({ error: 'This directory is not available' }, 404);
      case 'password_required':
        return json({ error: 'This directory is password protected.', reason: 'password_required' }, 403);
      case 'forbidden':
        return json({ error: 'Wrong password.', reason: 'wrong_password' }, 403);
    }
    if (error && (error.code === 'PGRST301' || /jwt/i.test(error.message)))
      return json({ error: 'Invalid or expired session' }, 401);
    console.error('[public-directory] get_public_directory failed:', error);
    return json({ error: 'The directory could not be loaded' }, 502);
  } catch (error) {
    console.error('[public-directory]', error);
    return json({ error: 'The directory could not be loaded' }, 502);
  }
}

serveOnDeno(handler);
