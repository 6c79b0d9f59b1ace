/**
 * The API gateway's key check: every /auth/v1 and /rest/v1 request carries an `apikey`
 * (header or query parameter) that is an anon or service_role key signed with the stack's secret.
 */
import type { MiddlewareHandler } from 'hono';
import type { StackContext } from './context.ts';
import { verifyJwt, type Claims } from './jwt.ts';

export function apiKeyOf(req: Request): string | undefined {
  return req.headers.get('apikey') ?? new URL(req.url).searchParams.get('apikey') ?? undefined;
}

/** The claims of a valid API key, or undefined. */
export async function apiKeyClaims(key: string | undefined, secret: string): Promise<Claims | undefined> {
  if (!key) return undefined;
  const result = await verifyJwt(key, secret);
  if (!result.ok) return undefined;
  return result.claims.role === 'anon' || result.claims.role === 'service_role' ? result.claims : undefined;
}

export function requireApiKey(ctx: StackContext): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const key = apiKeyOf(c.req.raw);
    if (!key) {
      return c.json(
        { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' },
        401,
      );
    }
    if (!(await apiKeyClaims(key, ctx.jwtSecret))) {
      return c.json(
        { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' },
        401,
      );
    }
    return next();
  };
}
