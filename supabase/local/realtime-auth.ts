/**
 * Who may join a private Realtime channel on the local stack, decided as hosted Realtime decides
 * it: the channel's access token is verified (the same messages as hosted for a bad, expired or
 * incomplete one), then the database's own row-level security answers. In one transaction that is
 * rolled back, a broadcast message for the topic is inserted, the caller's role, JWT claims and
 * `realtime.topic` are set, and the message is read back: visible means the select policies on
 * realtime.messages (supabase/schemas/sync_poke.sql) let the caller receive on the topic.
 */
import { errors, jwtVerify } from 'jose';
import type { Db } from './db.ts';
import { isApiRole, type Claims } from './jwt.ts';
import { secretKey } from './keys.ts';

export type TokenCheck = { ok: true; claims: Claims & { exp: number; role: string } } | { ok: false; reason: string };

/** A channel's access token as hosted Realtime checks it (its error codes and messages). */
export async function checkToken(token: string, secret: string): Promise<TokenCheck> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), { algorithms: ['HS256'] });
    if (typeof payload.exp !== 'number' || typeof payload.role !== 'string') {
      return { ok: false, reason: 'InvalidJWTToken: Fields `role` and `exp` are required in JWT' };
    }
    return { ok: true, claims: payload as Claims & { exp: number; role: string } };
  } catch (error) {
    if (error instanceof errors.JWTExpired) {
      const exp = typeof error.payload.exp === 'number' ? error.payload.exp : 0;
      return { ok: false, reason: `InvalidJWTToken: ${expiredMessage(exp)}` };
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      return { ok: false, reason: 'JwtSignatureError: Failed to validate JWT signature' };
    }
    return { ok: false, reason: 'MalformedJWT: The token provided is not a valid JWT' };
  }
}

export const expiredMessage = (exp: number): string =>
  `Token has expired ${Math.max(0, Math.floor(Date.now() / 1000) - exp)} seconds ago`;

/** Thrown to roll the check's transaction back with its answer. */
class Answer extends Error {
  constructor(readonly allowed: boolean) {
    super('rolled back');
  }
}

/** Whether these claims may receive broadcasts on `topic` under the database's policies. */
export async function mayRead(db: Db, topic: string, claims: Claims): Promise<boolean> {
  const role = claims.role;
  if (!isApiRole(role)) return false;
  try {
    await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        "insert into realtime.messages (topic, extension) values ($1, 'broadcast') returning id::text",
        [topic],
      );
      await tx.query(
        `select set_config('role', $1, true), set_config('realtime.topic', $2, true),
                set_config('request.jwt.claims', $3, true)`,
        [role, topic, JSON.stringify(claims)],
      );
      const seen = await tx.query(
        "select 1 from realtime.messages where topic = $1 and extension = 'broadcast' and id = $2::uuid",
        [topic, rows[0]!.id],
      );
      throw new Answer(seen.rows.length > 0);
    });
  } catch (error) {
    if (error instanceof Answer) return error.allowed;
    // A policy that fails is no permission (hosted: RlsPolicyError, then Unauthorized).
    if (isPolicyError(error)) return false;
    throw error;
  }
  return false;
}

const isPolicyError = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';

export const unauthorized = (topic: string): string =>
  `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`;
