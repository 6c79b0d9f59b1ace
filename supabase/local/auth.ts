/**
 * /auth/v1: the part of GoTrue that supabase-js uses for email and password accounts.
 * A sign-up gets a session at once (GoTrue's MAILER_ALLOW_UNVERIFIED_EMAIL_SIGN_INS), but its
 * address stays unconfirmed, and binds no directory invitation, until the link mailed to it is
 * opened (GET /verify). An e-mail change waits in `new_email` until the new address confirms it.
 * Sign-ups, sign-ins, mails and link openings are throttled (auth-limits.ts).
 */
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import type { StackContext } from './context.ts';
import { readJsonBody } from './context.ts';
import { isPlainObject } from '../../src/domain/input-schema.ts';
import { requireApiKey } from './api-key.ts';
import { AuthFailure, API_VERSION, authErrorResponse, checkPassword, checkPasswordSize, fail } from './auth-errors.ts';
import {
  confirmEmailChange,
  confirmSignup,
  emailTaken,
  insertUser,
  renewConfirmation,
  renewEmailChange,
  requestEmailChange,
  updateUser,
  userById,
  userByPassword,
  type AuthUser,
} from './auth-users.ts';
import { hashToken, mailConfirmation, mailEmailChange, newToken } from './auth-mail.ts';
import {
  authInput,
  grantType,
  logoutScope,
  passwordGrantBody,
  refreshGrantBody,
  resendBody,
  signupBody,
  userUpdateBody,
  verifyQuery,
} from './auth-inputs.ts';
import { recordAttempt, refuseWhenThrottled, throttle } from './auth-limits.ts';
import { clientOf } from './context.ts';
import { endSessions, refreshSession, sessionExists, startSession, type Issuer } from './auth-sessions.ts';
import { bearerToken, verifyJwt, type Claims } from './jwt.ts';

type Body = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function authApp(ctx: StackContext): Hono {
  const app = new Hono();
  const issuer = (c: Context): Issuer => ({ iss: `${new URL(c.req.url).origin}/auth/v1`, secret: ctx.jwtSecret });

  /** Runs a route, turning AuthFailure into GoTrue's error body and anything else into a logged 500. */
  const route = (fn: (c: Context, body: Body) => Promise<Response>) => async (c: Context) => {
    c.header('X-Supabase-Api-Version', API_VERSION);
    try {
      let body: Body = {};
      if (c.req.method === 'POST' || c.req.method === 'PUT') {
        const parsed = await readJsonBody(c.req.raw);
        // A NUL character or a lone surrogate anywhere (e-mail, password, metadata): refused with words.
        if (!parsed.ok && (parsed.kind === 'nul' || parsed.kind === 'surrogate'))
          throw fail(400, 'validation_failed', parsed.message);
        if (!parsed.ok && parsed.kind !== 'syntax') throw fail(400, 'validation_failed', parsed.error);
        if (!parsed.ok) throw fail(400, 'bad_json', `Could not parse request body as JSON: ${parsed.error}`);
        if (!isPlainObject(parsed.value))
          throw fail(400, 'bad_json', 'Could not parse request body as JSON: expected an object');
        body = parsed.value;
      }
      return await fn(c, body);
    } catch (error) {
      if (error instanceof AuthFailure) return authErrorResponse(c, error);
      console.error('[auth]', error);
      return authErrorResponse(
        c,
        fail(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information'),
      );
    }
  };

  /** The caller's verified access token claims and user. */
  const currentUser = async (c: Context): Promise<{ claims: Claims; user: AuthUser }> => {
    const token = bearerToken(c.req.header('Authorization'));
    if (!token) throw fail(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    const verified = await verifyJwt(token, ctx.jwtSecret);
    if (!verified.ok)
      throw fail(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${verified.message}`);
    const { claims } = verified;
    if (typeof claims.sub !== 'string' || !claims.sub) throw fail(403, 'bad_jwt', 'invalid claim: missing sub claim');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    if (!uuid.test(claims.sub) || (claims.session_id !== undefined && !uuid.test(String(claims.session_id)))) {
      throw fail(403, 'bad_jwt', 'invalid JWT: sub and session_id must be UUIDs');
    }
    if (typeof claims.session_id === 'string' && !(await sessionExists(ctx.db, claims.session_id))) {
      throw fail(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    const user = await userById(ctx.db, claims.sub);
    if (!user) throw fail(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { claims, user };
  };

  // The confirmation link is opened from a mail, without an API key (as hosted Supabase's gateway allows).
  const keyCheck = requireApiKey(ctx);
  app.use('*', (c, next) => (c.req.method === 'GET' && c.req.path.endsWith('/verify') ? next() : keyCheck(c, next)));

  app.get('/health', (c) => c.json({ version: 'local', name: 'GoTrue', description: 'Linkboard local stack auth' }));
  app.get('/settings', (c) =>
    c.json({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: false,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );
  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [] }));

  app.post(
    '/signup',
    route(async (c, body) => {
      if (!str(body.email)?.trim() && str(body.phone))
        throw fail(400, 'phone_provider_disabled', 'Phone signups are disabled');
      const { email, password, data } = authInput(signupBody, body);
      checkPassword(password);
      await throttle(ctx.db, ctx.limits, 'signUp', clientOf(ctx, c));
      const session = await ctx.db.transaction(async (tx) => {
        if (await emailTaken(tx, email)) throw fail(422, 'user_already_exists', 'User already registered');
        const id = randomUUID();
        const { token, hash } = newToken();
        try {
          await insertUser(tx, { id, email, password, data, tokenHash: hash }, ctx.passwordCost);
        } catch (error) {
          console.error('[auth] sign-up failed in the database:', error);
          throw fail(500, 'unexpected_failure', 'Database error saving new user');
        }
        await mailConfirmation(tx, ctx.siteUrl, email.toLowerCase(), id, token);
        return startSession(tx, issuer(c), id);
      });
      return c.json(session);
    }),
  );

  app.post(
    '/token',
    route(async (c, body) => {
      const grant = c.req.query('grant_type');
      if (!v.is(grantType, grant)) {
        throw fail(400, 'unsupported_grant_type', `unsupported_grant_type: ${grant ?? '(none)'}`);
      }
      if (grant === 'password') {
        const { email, password } = authInput(passwordGrantBody, body);
        checkPasswordSize(password);
        await throttle(ctx.db, ctx.limits, 'signIn', clientOf(ctx, c));
        await refuseWhenThrottled(ctx.db, ctx.limits, 'signInFailures', email);
        try {
          const session = await ctx.db.transaction(async (tx) => {
            const user = await userByPassword(tx, email, password);
            return startSession(tx, issuer(c), user.id);
          });
          return c.json(session);
        } catch (error) {
          if (error instanceof AuthFailure && error.code === 'invalid_credentials') {
            await recordAttempt(ctx.db, 'signInFailures', email);
          }
          throw error;
        }
      }
      const token = authInput(refreshGrantBody, body).refresh_token;
      const result = await ctx.db.transaction((tx) => refreshSession(tx, issuer(c), token));
      if (result instanceof AuthFailure) throw result;
      return c.json(result);
    }),
  );

  app.get(
    '/user',
    route(async (c) => c.json((await currentUser(c)).user)),
  );

  app.put(
    '/user',
    route(async (c, body) => {
      const { user } = await currentUser(c);
      const { email, password, data } = authInput(userUpdateBody, body);
      if (password !== undefined) checkPassword(password);
      const newEmail = email && email.toLowerCase() !== user.email ? email.toLowerCase() : undefined;
      if (newEmail) await throttle(ctx.db, ctx.limits, 'mail', newEmail);
      const updated = await ctx.db.transaction(async (tx) => {
        if (newEmail && (await emailTaken(tx, newEmail, user.id))) {
          throw fail(422, 'email_exists', 'A user with this email address has already been registered');
        }
        await updateUser(tx, user.id, { password, data }, ctx.passwordCost);
        if (newEmail) {
          const { token, hash } = newToken();
          await requestEmailChange(tx, user.id, newEmail, hash);
          await mailEmailChange(tx, ctx.siteUrl, { userId: user.id, oldEmail: user.email, newEmail, token });
        }
        return userById(tx, user.id);
      });
      return c.json(updated);
    }),
  );

  /** GET /verify?token&type[&redirect_to]: the mailed link. Redirects to the app, saying how it went. */
  app.get(
    '/verify',
    route(async (c) => {
      const link = v.safeParse(verifyQuery, { type: c.req.query('type'), token: c.req.query('token') });
      const target = redirectTarget(ctx.siteUrl, c.req.query('redirect_to'));
      await throttle(ctx.db, ctx.limits, 'verify', clientOf(ctx, c));
      let outcome: string | undefined;
      const type = link.success ? link.output.type : undefined;
      if (link.success) {
        const { token } = link.output;
        outcome = await ctx.db.transaction((tx) =>
          type === 'signup' ? confirmSignup(tx, hashToken(token)) : confirmEmailChange(tx, hashToken(token)),
        );
      }
      // Codes, never text: the app words them (a message in the URL would let anyone write on the page).
      if (outcome && outcome !== 'taken') target.searchParams.set('confirmed', type === 'signup' ? 'signup' : 'email');
      else target.searchParams.set('confirm_error', outcome === 'taken' ? 'taken' : 'invalid');
      return c.redirect(target.toString(), 303);
    }),
  );

  /** POST /resend {type: signup | email_change, email}: mails the link again. Says nothing of whether the account exists. */
  app.post(
    '/resend',
    route(async (c, body) => {
      const { type, email } = authInput(resendBody, body);
      await throttle(ctx.db, ctx.limits, 'verify', clientOf(ctx, c));
      await throttle(ctx.db, ctx.limits, 'mail', email);
      await ctx.db.transaction(async (tx) => {
        const { token, hash } = newToken();
        if (type === 'signup') {
          const id = await renewConfirmation(tx, email, hash);
          if (id) await mailConfirmation(tx, ctx.siteUrl, email, id, token);
        } else {
          const id = await renewEmailChange(tx, email, hash);
          const user = id ? await userById(tx, id) : undefined;
          if (user) await mailEmailChange(tx, ctx.siteUrl, { userId: user.id, oldEmail: null, newEmail: email, token });
        }
      });
      return c.json({});
    }),
  );

  app.post(
    '/logout',
    route(async (c) => {
      const scope = authInput(logoutScope, c.req.query('scope'));
      const { claims, user } = await currentUser(c);
      const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
      if (sessionId || scope === 'global')
        await endSessions(ctx.db, sessionId ? scope : 'global', user.id, sessionId ?? '');
      return c.body(null, 204);
    }),
  );

  app.all('*', (c) => {
    c.header('X-Supabase-Api-Version', API_VERSION);
    return c.json(
      {
        code: 'not_found',
        error_code: 'not_found',
        msg: `${c.req.method} ${new URL(c.req.url).pathname} is not served by the local stack`,
      },
      404,
    );
  });
  return app;
}

/** The redirect after a confirmation link: redirect_to when it is on the site's origin, else the sign-in page. */
function redirectTarget(siteUrl: string, requested: string | undefined): URL {
  const site = new URL(siteUrl);
  if (requested) {
    try {
      const url = new URL(requested, site);
      if (url.origin === site.origin) return url;
    } catch {
      // an unparsable redirect_to falls back to the sign-in page
    }
  }
  return new URL('/Login', site);
}
