/**
 * /auth/v1: the part of GoTrue that supabase-js uses for email and password accounts.
 * Accounts are confirmed at sign-up (no mail round trip on the local stack).
 */
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { StackContext } from './context.ts';
import { isPlainObject, readJsonBody } from './context.ts';
import { requireApiKey } from './api-key.ts';
import { AuthFailure, API_VERSION, authErrorResponse, checkEmail, checkPassword, fail } from './auth-errors.ts';
import { emailTaken, insertUser, updateUser, userById, userByPassword, type AuthUser } from './auth-users.ts';
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

  app.use('*', requireApiKey(ctx));

  app.get('/health', (c) => c.json({ version: 'local', name: 'GoTrue', description: 'Linkboard local stack auth' }));
  app.get('/settings', (c) =>
    c.json({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );
  app.get('/.well-known/jwks.json', (c) => c.json({ keys: [] }));

  app.post(
    '/signup',
    route(async (c, body) => {
      const email = str(body.email)?.trim();
      const password = typeof body.password === 'string' ? body.password : undefined;
      if (!email && str(body.phone)) throw fail(400, 'phone_provider_disabled', 'Phone signups are disabled');
      if (!email) throw fail(400, 'validation_failed', 'To signup, please provide your email');
      if (!password) throw fail(400, 'validation_failed', 'Signup requires a valid password');
      checkEmail(email);
      checkPassword(password);
      const data = isPlainObject(body.data) ? body.data : {};
      const session = await ctx.db.transaction(async (tx) => {
        if (await emailTaken(tx, email)) throw fail(422, 'user_already_exists', 'User already registered');
        const id = randomUUID();
        try {
          await insertUser(tx, { id, email, password, data });
        } catch (error) {
          console.error('[auth] sign-up failed in the database:', error);
          throw fail(500, 'unexpected_failure', 'Database error saving new user');
        }
        return startSession(tx, issuer(c), id);
      });
      return c.json(session);
    }),
  );

  app.post(
    '/token',
    route(async (c, body) => {
      const grant = c.req.query('grant_type');
      if (grant === 'password') {
        const email = str(body.email);
        const password = str(body.password);
        if (!email || !password) {
          throw fail(400, 'validation_failed', 'You must provide either an email or phone number and a password');
        }
        const session = await ctx.db.transaction(async (tx) => {
          const user = await userByPassword(tx, email, password);
          return startSession(tx, issuer(c), user.id);
        });
        return c.json(session);
      }
      if (grant === 'refresh_token') {
        const token = str(body.refresh_token);
        if (!token) throw fail(400, 'validation_failed', 'Refresh token is required');
        const result = await ctx.db.transaction((tx) => refreshSession(tx, issuer(c), token));
        if (result instanceof AuthFailure) throw result;
        return c.json(result);
      }
      throw fail(400, 'unsupported_grant_type', `unsupported_grant_type: ${grant ?? '(none)'}`);
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
      const email = body.email === undefined ? undefined : str(body.email)?.trim();
      if (body.email !== undefined && !email)
        throw fail(400, 'validation_failed', 'Unable to validate email address: invalid format');
      if (email) checkEmail(email);
      const password = body.password === undefined ? undefined : typeof body.password === 'string' ? body.password : '';
      if (password !== undefined) checkPassword(password);
      if (body.data !== undefined && !isPlainObject(body.data))
        throw fail(400, 'validation_failed', 'data must be an object');
      const data = isPlainObject(body.data) ? body.data : undefined;
      const updated = await ctx.db.transaction(async (tx) => {
        if (email && email.toLowerCase() !== user.email && (await emailTaken(tx, email, user.id))) {
          throw fail(422, 'email_exists', 'A user with this email address has already been registered');
        }
        await updateUser(tx, user.id, { email: email === user.email ? undefined : email, password, data });
        return userById(tx, user.id);
      });
      return c.json(updated);
    }),
  );

  app.post(
    '/logout',
    route(async (c) => {
      const scope = c.req.query('scope') ?? 'global';
      if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
        throw fail(400, 'validation_failed', 'Unsupported logout scope: must be one of global, local or others');
      }
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
