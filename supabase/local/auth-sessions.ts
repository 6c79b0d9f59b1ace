/**
 * Sessions, access tokens and refresh tokens as GoTrue issues them: one auth.sessions row per
 * sign-in, single-use refresh tokens rotated within the session, and a 10 s reuse window.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Sql } from './db.ts';
import { secretKey } from './keys.ts';
import { fail, type AuthFailure } from './auth-errors.ts';
import { userById, type AuthUser } from './auth-users.ts';

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_REUSE_SECONDS = 10;

export interface Session {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: AuthUser;
}

export interface Issuer {
  /** `${origin}/auth/v1` of the request. */
  iss: string;
  secret: string;
}

function newRefreshToken(): string {
  return randomBytes(16).toString('base64url');
}

export async function signAccessToken(
  issuer: Issuer,
  user: AuthUser,
  session: { id: string; startedAt: number },
): Promise<{ token: string; exp: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ACCESS_TOKEN_SECONDS;
  const token = await new SignJWT({
    aud: 'authenticated',
    exp,
    iat,
    iss: issuer.iss,
    sub: user.id,
    email: user.email ?? '',
    phone: '',
    app_metadata: user.app_metadata,
    user_metadata: user.user_metadata,
    role: 'authenticated',
    aal: 'aal1',
    amr: [{ method: 'password', timestamp: session.startedAt }],
    session_id: session.id,
    is_anonymous: user.is_anonymous,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(secretKey(issuer.secret));
  return { token, exp };
}

async function sessionResponse(
  sql: Sql,
  issuer: Issuer,
  userId: string,
  session: { id: string; startedAt: number },
  refreshToken: string,
): Promise<Session> {
  const user = await userById(sql, userId);
  if (!user) throw fail(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  const { token, exp } = await signAccessToken(issuer, user, session);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    expires_at: exp,
    refresh_token: refreshToken,
    user,
  };
}

/** Starts a session for a user who just proved who they are. */
export async function startSession(sql: Sql, issuer: Issuer, userId: string): Promise<Session> {
  const id = randomUUID();
  const token = newRefreshToken();
  await sql.query('insert into auth.sessions (id, user_id) values ($1, $2)', [id, userId]);
  await sql.query('insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)', [
    token,
    userId,
    id,
  ]);
  await sql.query('update auth.users set last_sign_in_at = now() where id = $1', [userId]);
  return sessionResponse(sql, issuer, userId, { id, startedAt: Math.floor(Date.now() / 1000) }, token);
}

interface TokenRow {
  revoked: boolean;
  session_id: string;
  user_id: string;
  in_window: boolean;
  expired: boolean;
  banned: boolean;
  started_at: number;
}

/**
 * The refresh_token grant. Returns the new session, or a failure to report after the
 * caller commits (a reuse outside the window revokes the whole session's tokens).
 */
export async function refreshSession(sql: Sql, issuer: Issuer, token: string): Promise<Session | AuthFailure> {
  const { rows } = await sql.query<TokenRow>(
    `select rt.revoked, rt.session_id, rt.user_id,
            rt.updated_at > now() - make_interval(secs => $2) as in_window,
            coalesce(s.not_after < now(), false) as expired,
            coalesce(u.banned_until > now(), false) as banned,
            extract(epoch from s.created_at)::int as started_at
       from auth.refresh_tokens rt
       join auth.sessions s on s.id = rt.session_id
       join auth.users u on u.id = rt.user_id
      where rt.token = $1
      for update of rt`,
    [token, REFRESH_REUSE_SECONDS],
  );
  const row = rows[0];
  if (!row) throw fail(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  if (row.expired) throw fail(400, 'session_expired', 'Invalid Refresh Token: Session Expired');
  if (row.banned) throw fail(400, 'user_banned', 'User is banned');
  const session = { id: row.session_id, startedAt: Number(row.started_at) };
  if (row.revoked) {
    const active = row.in_window
      ? (
          await sql.query<{ token: string }>(
            'select token from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1',
            [row.session_id],
          )
        ).rows[0]
      : undefined;
    if (active) return sessionResponse(sql, issuer, row.user_id, session, active.token);
    await sql.query(
      'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked',
      [row.session_id],
    );
    return fail(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  }
  const child = newRefreshToken();
  await sql.query('update auth.refresh_tokens set revoked = true, updated_at = now() where token = $1', [token]);
  await sql.query('insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)', [
    child,
    row.user_id,
    row.session_id,
    token,
  ]);
  await sql.query('update auth.sessions set updated_at = now() where id = $1', [row.session_id]);
  return sessionResponse(sql, issuer, row.user_id, session, child);
}

/** POST /logout: ends this session (local), every session (global) or the others (others). */
export async function endSessions(
  sql: Sql,
  scope: 'global' | 'local' | 'others',
  userId: string,
  sessionId: string,
): Promise<void> {
  if (scope === 'local') await sql.query('delete from auth.sessions where id = $1', [sessionId]);
  if (scope === 'global') await sql.query('delete from auth.sessions where user_id = $1', [userId]);
  if (scope === 'others') {
    await sql.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId]);
  }
}

export async function sessionExists(sql: Sql, sessionId: string): Promise<boolean> {
  const { rows } = await sql.query('select 1 from auth.sessions where id = $1', [sessionId]);
  return rows.length > 0;
}
