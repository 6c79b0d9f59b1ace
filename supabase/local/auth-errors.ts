/** GoTrue's error bodies: {code, error_code, msg}, with the API version header that makes clients read `code`. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const API_VERSION = '2024-01-01';

export class AuthFailure extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function authErrorResponse(c: Context, failure: AuthFailure): Response {
  c.header('X-Supabase-Api-Version', API_VERSION);
  for (const [name, value] of Object.entries(failure.headers)) c.header(name, value);
  return c.json(
    { code: failure.code, error_code: failure.code, msg: failure.message, ...failure.extra },
    failure.status,
  );
}

export const fail = (
  status: ContentfulStatusCode,
  code: string,
  message: string,
  extra?: Record<string, unknown>,
  headers?: Record<string, string>,
) => new AuthFailure(status, code, message, extra, headers);

export const MIN_PASSWORD_LENGTH = 6;
/** bcrypt reads only the first 72 bytes: a longer password is refused, never silently cut. */
export const MAX_PASSWORD_BYTES = 72;

export function checkPasswordSize(password: string): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw fail(
      422,
      'weak_password',
      `Password cannot be longer than ${MAX_PASSWORD_BYTES} bytes (${MAX_PASSWORD_BYTES} plain letters or digits; fewer with accents or emoji).`,
      { weak_password: { reasons: ['length'] } },
    );
  }
}

export function checkPassword(password: string): void {
  checkPasswordSize(password);
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw fail(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
      weak_password: { reasons: ['length'] },
    });
  }
}
