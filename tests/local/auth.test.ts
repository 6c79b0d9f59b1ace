import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerify } from 'jose';
import { anonKey, jwtSecret, startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';
import { dbKinds } from '../support/db.ts';
import { confirmEmail, openVerifyLink, verifyLinkFor } from '../support/confirm-email.ts';

describe.each(dbKinds)('on %s', (kind) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ kind });
  });
  afterAll(() => stack.close());

  describe('auth: sign-up and sign-in', () => {
    it('signs up an account, unconfirmed until the mailed link is opened, with a session carrying Supabase claims', async () => {
      const email = uniqueEmail();
      const { data, error } = await stack
        .client()
        .auth.signUp({ email, password: 'password1', options: { data: { username: 'ann' } } });
      expect(error).toBeNull();
      expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
      expect(data.user).toMatchObject({
        email,
        aud: 'authenticated',
        role: 'authenticated',
        phone: '',
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: { username: 'ann' },
        is_anonymous: false,
      });
      expect(data.user?.email_confirmed_at).toBeNull();
      expect(data.user?.confirmation_sent_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
      await confirmEmail(stack.fetch, URL_BASE, email);
      expect((await stack.client().auth.getUser(data.session!.access_token)).data.user?.email_confirmed_at).toMatch(
        /^\d{4}-\d\d-\d\dT.*Z$/,
      );
      const { payload } = await jwtVerify(data.session!.access_token, new TextEncoder().encode(jwtSecret));
      expect(payload).toMatchObject({
        aud: 'authenticated',
        iss: `${URL_BASE}/auth/v1`,
        sub: data.user!.id,
        email,
        role: 'authenticated',
        aal: 'aal1',
        is_anonymous: false,
        user_metadata: { username: 'ann' },
      });
      expect(payload.exp! - payload.iat!).toBe(3600);
      expect(typeof payload.session_id).toBe('string');
    });

    it('refuses a second account with the same email, and a sign-up without a password', async () => {
      const email = uniqueEmail();
      await stack.client().auth.signUp({ email, password: 'password1' });
      const again = await stack.client().auth.signUp({ email: email.toUpperCase(), password: 'password2' });
      expect(again.error).toMatchObject({
        status: 422,
        code: 'user_already_exists',
        message: 'User already registered',
      });
      const empty = await stack.client().auth.signUp({ email: uniqueEmail(), password: '' });
      expect(empty.error).toMatchObject({ status: 400, message: 'Signup requires a valid password' });
      const weak = await stack.client().auth.signUp({ email: uniqueEmail(), password: '123' });
      expect(weak.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
    });

    it('signs in with the password and refuses a wrong one', async () => {
      const email = uniqueEmail();
      await stack.client().auth.signUp({ email, password: 'password1' });
      const ok = await stack.client().auth.signInWithPassword({ email, password: 'password1' });
      expect(ok.error).toBeNull();
      expect(ok.data.user?.email).toBe(email);
      expect(ok.data.user?.last_sign_in_at).toBeTruthy();
      const bad = await stack.client().auth.signInWithPassword({ email, password: 'nope' });
      expect(bad.error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
      const unknown = await stack.client().auth.signInWithPassword({ email: uniqueEmail(), password: 'password1' });
      expect(unknown.error?.message).toBe('Invalid login credentials');
    });

    it('reads and updates the user', async () => {
      const client = stack.client();
      const email = uniqueEmail();
      await client.auth.signUp({ email, password: 'password1', options: { data: { username: 'bob', bio: 'hi' } } });
      const got = await client.auth.getUser();
      expect(got.data.user).toMatchObject({ email, user_metadata: { username: 'bob' } });

      const newEmail = uniqueEmail('renamed');
      const updated = await client.auth.updateUser({
        email: newEmail,
        password: 'password2',
        data: { bio: null, city: 'Oslo' },
      });
      expect(updated.error).toBeNull();
      // The address changes only once the new one confirms it (GoTrue's new_email).
      expect(updated.data.user).toMatchObject({
        email,
        new_email: newEmail,
        user_metadata: { username: 'bob', city: 'Oslo' },
      });
      expect(updated.data.user?.user_metadata).not.toHaveProperty('bio');
      expect((await stack.client().auth.signInWithPassword({ email, password: 'password2' })).error).toBeNull();
      await openVerifyLink(stack.fetch, URL_BASE, await verifyLinkFor(stack.fetch, URL_BASE, newEmail, 'email_change'));
      expect(
        (await stack.client().auth.signInWithPassword({ email: newEmail, password: 'password2' })).error,
      ).toBeNull();
      expect((await client.auth.updateUser({ password: 'password2' })).error?.code).toBe('same_password');
    });
  });

  describe('auth: refresh tokens and sign-out', () => {
    it('rotates refresh tokens once, with a 10 s reuse window', async () => {
      const client = stack.client();
      const { data } = await client.auth.signUp({ email: uniqueEmail(), password: 'password1' });
      const first = data.session!.refresh_token;
      const refreshed = await client.auth.refreshSession();
      expect(refreshed.error).toBeNull();
      const second = refreshed.data.session!.refresh_token;
      expect(second).not.toBe(first);

      // Reusing the old token inside the window answers with the active child.
      const reuse = await stack.client().auth.refreshSession({ refresh_token: first });
      expect(reuse.error).toBeNull();
      expect(reuse.data.session?.refresh_token).toBe(second);

      // Outside the window the reuse is refused and the session's tokens are revoked.
      await stack.db.query(
        "update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where token = $1",
        [first],
      );
      const late = await stack.client().auth.refreshSession({ refresh_token: first });
      expect(late.error).toMatchObject({
        status: 400,
        code: 'refresh_token_already_used',
        message: 'Invalid Refresh Token: Already Used',
      });
      await stack.db.query(
        "update auth.refresh_tokens set updated_at = now() - interval '11 seconds' where token = $1",
        [second],
      );
      const child = await stack.client().auth.refreshSession({ refresh_token: second });
      expect(child.error?.code).toBe('refresh_token_already_used');
    });

    it('signs out: the refresh token and the access token stop working', async () => {
      const client = stack.client();
      const { data } = await client.auth.signUp({ email: uniqueEmail(), password: 'password1' });
      const { access_token, refresh_token } = data.session!;
      expect((await client.auth.signOut()).error).toBeNull();
      const refresh = await stack.client().auth.refreshSession({ refresh_token });
      expect(refresh.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
      const user = await stack.client().auth.getUser(access_token);
      expect(user.error?.name).toBe('AuthSessionMissingError');
    });

    it('ends other sessions with scope others', async () => {
      const email = uniqueEmail();
      const a = stack.client();
      const b = stack.client();
      await a.auth.signUp({ email, password: 'password1' });
      const signedIn = await b.auth.signInWithPassword({ email, password: 'password1' });
      expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
      expect((await a.auth.getUser()).data.user?.email).toBe(email);
      expect((await stack.client().auth.getUser(signedIn.data.session!.access_token)).error?.name).toBe(
        'AuthSessionMissingError',
      );
    });
  });

  describe('auth: bad requests', () => {
    const post = (path: string, body: string, headers: Record<string, string> = { apikey: anonKey }) =>
      stack.fetch(`${URL_BASE}/auth/v1${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });

    it('needs a valid apikey', async () => {
      expect((await post('/token?grant_type=password', '{}', {})).status).toBe(401);
      expect((await post('/token?grant_type=password', '{}', { apikey: 'nope' })).status).toBe(401);
      const forged = `${anonKey.slice(0, -4)}AAAA`;
      expect((await post('/token?grant_type=password', '{}', { apikey: forged })).status).toBe(401);
    });

    it('answers malformed JSON, unknown grants and bad tokens with 4xx in GoTrue shape', async () => {
      const malformed = await post('/signup', '{"email":');
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toMatchObject({ code: 'bad_json', error_code: 'bad_json' });
      expect((await post('/token?grant_type=magic', '{}')).status).toBe(400);
      expect((await post('/token?grant_type=refresh_token', '{}')).status).toBe(400);
      expect((await post('/signup', '[1,2]')).status).toBe(400);
      const noToken = await stack.fetch(`${URL_BASE}/auth/v1/user`, { headers: { apikey: anonKey } });
      expect(noToken.status).toBe(401);
      const badToken = await stack.fetch(`${URL_BASE}/auth/v1/user`, {
        headers: { apikey: anonKey, Authorization: 'Bearer x.y.z' },
      });
      expect(badToken.status).toBe(403);
      expect(await badToken.json()).toMatchObject({ code: 'bad_jwt' });
      const anonAsUser = await stack.fetch(`${URL_BASE}/auth/v1/user`, {
        headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
      });
      expect(anonAsUser.status).toBe(403);
      const badScope = await post('/logout?scope=everyone', '');
      expect(badScope.status).toBe(400);
    });
  });
});
