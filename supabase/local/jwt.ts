/** HS256 verification shared by the auth, rest and functions routes. */
import { errors, jwtVerify, type JWTPayload } from 'jose';
import { secretKey } from './keys.ts';

export type Claims = JWTPayload & {
  role?: string;
  email?: string;
  session_id?: string;
  [key: string]: unknown;
};

export type VerifyResult = { ok: true; claims: Claims } | { ok: false; reason: 'expired' | 'invalid'; message: string };

/**
 * The HMAC key of each secret, imported once: jose imports a raw key on every call otherwise,
 * and every API request verifies a token.
 */
const verifyKeys = new Map<string, Promise<CryptoKey>>();

function verifyKey(secret: string): Promise<CryptoKey> {
  let key = verifyKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', secretKey(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    verifyKeys.set(secret, key);
  }
  return key;
}

export async function verifyJwt(token: string, secret: string): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, await verifyKey(secret), { algorithms: ['HS256'] });
    return { ok: true, claims: payload as Claims };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, reason: 'expired', message: 'token is expired' };
    return { ok: false, reason: 'invalid', message: error instanceof Error ? error.message : 'invalid token' };
  }
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
