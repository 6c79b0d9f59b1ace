/**
 * What /auth/v1 takes, as valibot schemas (the client's schema library): each route's body or
 * query is parsed with its schema, and the first issue is GoTrue's 400 `{code, error_code, msg}`
 * with GoTrue's own words. Text the database cannot store is refused before, by the body reader.
 * The password's strength (422 weak_password) stays in auth-errors.ts: it is a rule, not a shape.
 */
import * as v from 'valibot';
import { firstIssue, isPlainObject } from '../../src/domain/input-schema.ts';
import { fail } from './auth-errors.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INVALID_EMAIL = 'Unable to validate email address: invalid format';

/** A non-empty string (GoTrue reads "" as not given, and a missing field as ""); `message` for anything else. */
const given = (message: string) => v.optional(v.pipe(v.string(message), v.nonEmpty(message)), '');

/** An address GoTrue accepts: trimmed, one @, a dot in the domain, at most 255 characters. */
export const emailAddress = v.pipe(
  v.string(INVALID_EMAIL),
  v.trim(),
  v.regex(EMAIL, INVALID_EMAIL),
  v.maxLength(255, INVALID_EMAIL),
);

/** POST /signup {email, password, data?}: data other than an object is no metadata. */
export const signupBody = v.object({
  email: v.pipe(
    given('To signup, please provide your email'),
    v.trim(),
    v.nonEmpty('To signup, please provide your email'),
    emailAddress,
  ),
  password: given('Signup requires a valid password'),
  data: v.optional(
    v.pipe(
      v.unknown(),
      v.transform((data) => (isPlainObject(data) ? data : {})),
    ),
    {},
  ),
});

const PASSWORD_GRANT = 'You must provide either an email or phone number and a password';
/** POST /token?grant_type=password {email, password}. */
export const passwordGrantBody = v.object(
  { email: given(PASSWORD_GRANT), password: given(PASSWORD_GRANT) },
  PASSWORD_GRANT,
);

/** POST /token?grant_type=refresh_token {refresh_token}. */
export const refreshGrantBody = v.object(
  { refresh_token: given('Refresh token is required') },
  'Refresh token is required',
);

/** The grant types served. */
export const grantType = v.picklist(['password', 'refresh_token']);

/** PUT /user {email?, password?, data?}: what is given is changed. */
export const userUpdateBody = v.object({
  email: v.optional(emailAddress),
  password: v.optional(v.string('password must be text.')),
  data: v.optional(v.custom<Record<string, unknown>>(isPlainObject, 'data must be an object')),
});

const RESEND = 'Resend requires an email or phone and a type';
/** POST /resend {type, email}: the type first, as GoTrue checks it. */
export const resendBody = v.object({
  type: v.pipe(
    v.optional(v.unknown(), ''),
    v.picklist(['signup', 'email_change'], 'Missing one of these types: signup, email_change'),
  ),
  email: v.pipe(given(RESEND), v.trim(), v.nonEmpty(RESEND), v.toLowerCase(), emailAddress),
});

/** POST /logout?scope=: global when not given. */
export const logoutScope = v.optional(
  v.picklist(['global', 'local', 'others'], 'Unsupported logout scope: must be one of global, local or others'),
  'global',
);

/** GET /verify?type&token: anything else is no link of ours (the page says it is invalid). */
export const verifyQuery = v.object({
  type: v.picklist(['signup', 'email_change']),
  token: v.pipe(v.string(), v.nonEmpty()),
});

/** `value` parsed with `schema`, or GoTrue's 400 with the first issue's words and `code`. */
export function authInput<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  code = 'validation_failed',
): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (!result.success) throw fail(400, code, firstIssue(result.issues));
  return result.output;
}
