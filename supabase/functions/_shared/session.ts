/** The signed-in user behind a function request's bearer token. */
import { serverClient } from './client.ts';
import { userToken } from './http.ts';
import type { FunctionEnv } from './types.ts';

export interface SessionUser {
  id: string;
  email: string | null;
}

/** The user of the bearer token; null for no token or the anon key; 'invalid' for a bad or expired one. */
export async function sessionUser(req: Request, env: FunctionEnv): Promise<SessionUser | null | 'invalid'> {
  const token = userToken(req, env.SUPABASE_ANON_KEY);
  if (!token) return null;
  const client = serverClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, env.fetch);
  const { data, error } = await client.auth.getUser(token);
  return error || !data.user ? 'invalid' : { id: data.user.id, email: data.user.email ?? null };
}
