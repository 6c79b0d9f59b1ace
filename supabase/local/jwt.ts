/**
 * HS256 verification shared by the auth, rest and functions routes: every API request verifies
 * its apikey and its bearer token. Done here with node:crypto's synchronous HMAC: jose's
 * WebCrypto verify hands each one to the thread pool, and under 200 syncing clients that
 * hand-over was a fifth of the stack's CPU (docs/scale.md, point 7). The checks are jose's
 * `jwtVerify(token, key, { algorithms: ['HS256'] })`: a compact JWS of a JSON object header whose
 * `alg` is HS256 and no `crit`, the signature, a JSON object payload, and `iat`, `nbf` and `exp`
 * numbers when present (expired when `exp` <= now, not yet valid when `nbf` > now, in seconds).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Claims = {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  role?: string;
  email?: string;
  session_id?: string;
  [key: string]: unknown;
};

export type VerifyResult = { ok: true; claims: Claims } | { ok: false; reason: 'expired' | 'invalid'; message: string };

const invalid = (message: string): VerifyResult => ({ ok: false, reason: 'invalid', message });

function jsonObject(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The verification, synchronous; `now` in milliseconds. */
export function verifyHs256(token: string, secret: string, now = Date.now()): VerifyResult {
  const parts = token.split('.');
  if (parts.length !== 3) return invalid('Invalid Compact JWS');
  const [head, body, signature] = parts as [string, string, string];
  const header = jsonObject(head);
  if (!header) return invalid('Invalid JWS Protected Header');
  if (header.alg !== 'HS256') return invalid('"alg" (Algorithm) Header Parameter value not allowed');
  if (header.crit !== undefined) return invalid('Extension Header Parameter not recognized');
  // The signature compared as its canonical base64url text: a string of another length, or
  // other characters decoding to the same bytes, is refused.
  const expected = Buffer.from(createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return invalid('signature verification failed');
  }
  const claims = jsonObject(body) as Claims | undefined;
  if (!claims) return invalid('JWT Claims Set must be a top-level JSON object');
  const seconds = Math.floor(now / 1000);
  for (const claim of ['iat', 'nbf', 'exp'] as const) {
    if (claims[claim] !== undefined && typeof claims[claim] !== 'number') {
      return invalid(`"${claim}" claim must be a number`);
    }
  }
  if (claims.nbf !== undefined && claims.nbf > seconds) return invalid('"nbf" claim timestamp check failed');
  if (claims.exp !== undefined && claims.exp <= seconds)
    return { ok: false, reason: 'expired', message: 'token is expired' };
  return { ok: true, claims };
}

export async function verifyJwt(token: string, secret: string): Promise<VerifyResult> {
  return verifyHs256(token, secret);
}

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(header: string | undefined | null): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

export const apiRoles = ['anon', 'authenticated', 'service_role'] as const;
export type ApiRole = (typeof apiRoles)[number];

export function isApiRole(value: unknown): value is ApiRole {
  return typeof value === 'string' && (apiRoles as readonly string[]).includes(value);
}
