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
  ) {
    super(message);
  }
}

export function authErrorResponse(c: Context, failure: AuthFailure): Response {
  c.header('X-Supabase-Api-Version', API_VERSION);
  return c.json(
    { code: failure.code, error_code: failure.code, msg: failure.message, ...failure.extra },
    failure.status,
  );
}

export const fail = (status: ContentfulStatusCode, code: string, message: string, extra?: Record<string, unknown>) =>
  new AuthFailure(status, code, message, extra);

export const MIN_PASSWORD_LENGTH = 6;

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw fail(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
      weak_password: { reasons: ['length'] },
    });
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: string): void {
  if (!EMAIL.test(email) || email.length > 255) {
    throw fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
  }
}
