/**
 * The auth server as an attacker tries it: confirmation links, e-mail changes that
 * wait for the new address, throttled sign-ups, sign-ins and mails keyed on the client address the
 * gateway sees, and passwords bcrypt cannot hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonKey, startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';
import { dbKinds } from '../support/db.ts';
import { confirmEmail, openVerifyLink, verifyLinkFor } from '../support/confirm-email.ts';

let peer = 0;
/** A client address of the documentation range, new for each test, so limits start afresh. */
const newPeer = () => `203.0.113.${(peer += 1)}`;

describe.each(dbKinds)('on %s', (kind) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ kind });
  });
  afterAll(() => stack.close());

  const auth = (path: string, body: unknown, from: string, headers: Record<string, string> = {}) =>
    stack.fetch(`${URL_BASE}/auth/v1${path}`, {
      method: 'POST',
      headers: { apikey: anonKey, 'Content-Type': 'application/json', 'X-Forwarded-For': from, ...headers },
      body: JSON.stringify(body),
    });

  describe('confirmation links', () => {
    it('confirms a sign-up only through the mailed link, once, and ignores a foreign redirect', async () => {
      const email = uniqueEmail('confirm');
      expect((await auth('/signup', { email, password: 'password1' }, newPeer())).status).toBe(200);
      const link = await verifyLinkFor(stack.fetch, URL_BASE, email);
      expect(new URL(link).origin).toBe(URL_BASE);

      const wrong = await openVerifyLink(stack.fetch, URL_BASE, `${URL_BASE}/auth/v1/verify?type=signup&token=guess`);
      expect(wrong.searchParams.get('confirm_error')).toBe('invalid');

      const foreign = `${link}&redirect_to=${encodeURIComponent('https://evil.example/steal')}`;
      const done = await openVerifyLink(stack.fetch, URL_BASE, foreign);
      expect(done.origin).toBe(URL_BASE);
      expect(done.pathname).toBe('/Login');
      expect(done.searchParams.get('confirmed')).toBe('signup');
      // A link works once.
      expect((await openVerifyLink(stack.fetch, URL_BASE, link)).searchParams.get('confirm_error')).toBeTruthy();
      const { rows } = await stack.db.query<{ confirmed: boolean; token: string | null }>(
        'select email_confirmed_at is not null as confirmed, confirmation_token as token from auth.users where email = $1',
        [email],
      );
      expect(rows[0]).toEqual({ confirmed: true, token: null });
    });

    it('stores only a hash of the token, and mails a new link on request without telling who exists', async () => {
      const email = uniqueEmail('resend');
      const from = newPeer();
      await auth('/signup', { email, password: 'password1' }, from);
      const first = new URL(await verifyLinkFor(stack.fetch, URL_BASE, email)).searchParams.get('token')!;
      const { rows } = await stack.db.query<{ token: string }>(
        'select confirmation_token as token from auth.users where email = $1',
        [email],
      );
      expect(rows[0]?.token).not.toContain(first);
      expect(rows[0]?.token).toMatch(/^[0-9a-f]{64}$/);

      expect((await auth('/resend', { type: 'signup', email }, from)).status).toBe(200);
      const second = await verifyLinkFor(stack.fetch, URL_BASE, email);
      expect(new URL(second).searchParams.get('token')).not.toBe(first);
      // The first link is void once a new one is sent; the new one confirms.
      const old = await openVerifyLink(stack.fetch, URL_BASE, second.replace(/token=[^&]+/, `token=${first}`));
      expect(old.searchParams.get('confirm_error')).toBeTruthy();
      expect((await openVerifyLink(stack.fetch, URL_BASE, second)).searchParams.get('confirmed')).toBe('signup');

      const nobody = await auth('/resend', { type: 'signup', email: uniqueEmail('nobody') }, from);
      expect(nobody.status).toBe(200);
      expect((await auth('/resend', { type: 'recovery', email }, from)).status).toBe(400);
    });

    it('keeps an e-mail change pending until the new address confirms it, and tells the old address', async () => {
      const client = stack.client();
      const email = uniqueEmail('owner');
      await client.auth.signUp({ email, password: 'password1' });
      await confirmEmail(stack.fetch, URL_BASE, email);
      const victim = uniqueEmail('victim');

      const { data, error } = await client.auth.updateUser({ email: victim });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, new_email: victim });
      const { rows: before } = await stack.db.query<{ email: string }>(
        'select email from public.user_profiles where id = $1',
        [data.user!.id],
      );
      expect(before[0]?.email).toBe(email);
      const notices = (await (
        await stack.fetch(`${URL_BASE}/_mailbox/messages.json?to=${encodeURIComponent(email)}`)
      ).json()) as { subject: string }[];
      expect(notices.map((m) => m.subject)).toContain('Your Linkboard e-mail address is about to change');

      const link = await verifyLinkFor(stack.fetch, URL_BASE, victim, 'email_change');
      expect((await openVerifyLink(stack.fetch, URL_BASE, link)).searchParams.get('confirmed')).toBe('email');
      const { rows: after } = await stack.db.query<{ email: string; confirmed: boolean }>(
        `select p.email, u.email_confirmed_at is not null as confirmed
           from public.user_profiles p join auth.users u on u.id = p.id where p.id = $1`,
        [data.user!.id],
      );
      expect(after[0]).toEqual({ email: victim, confirmed: true });
    });

    it('refuses to apply a change to an address another account took meanwhile', async () => {
      const client = stack.client();
      const email = uniqueEmail('slow');
      await client.auth.signUp({ email, password: 'password1' });
      const wanted = uniqueEmail('wanted');
      await client.auth.updateUser({ email: wanted });
      await stack.client().auth.signUp({ email: wanted, password: 'password1' });
      const link = await verifyLinkFor(stack.fetch, URL_BASE, wanted, 'email_change');
      const target = await openVerifyLink(stack.fetch, URL_BASE, link);
      expect(target.searchParams.get('confirm_error')).toBe('taken');
    });
  });

  describe('throttles keyed on the client address', () => {
    it('limits sign-ups per address with 429 and Retry-After; another address is not affected', async () => {
      const from = newPeer();
      const answers: number[] = [];
      for (let i = 0; i < 11; i++)
        answers.push((await auth('/signup', { email: uniqueEmail(), password: 'pw-123456' }, from)).status);
      expect(answers.slice(0, 10)).toEqual(Array(10).fill(200));
      const refused = await auth('/signup', { email: uniqueEmail(), password: 'pw-123456' }, from);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({
        code: 'over_request_rate_limit',
        msg: 'Too many sign-ups from this address. Please try again later.',
      });
      expect((await auth('/signup', { email: uniqueEmail(), password: 'pw-123456' }, newPeer())).status).toBe(200);
    });

    it('limits wrong passwords per account, whatever address they come from, without locking out others', async () => {
      const email = uniqueEmail('target');
      await auth('/signup', { email, password: 'right-password' }, newPeer());
      for (let i = 0; i < 10; i++) {
        const bad = await auth('/token?grant_type=password', { email, password: `guess-${i}` }, newPeer());
        expect(bad.status).toBe(400);
      }
      const locked = await auth('/token?grant_type=password', { email, password: 'right-password' }, newPeer());
      expect(locked.status).toBe(429);
      expect(await locked.json()).toMatchObject({ code: 'over_request_rate_limit' });
      const other = uniqueEmail('other');
      const from = newPeer();
      await auth('/signup', { email: other, password: 'right-password' }, from);
      expect(
        (await auth('/token?grant_type=password', { email: other, password: 'right-password' }, from)).status,
      ).toBe(200);
    });

    it('limits sign-in attempts per address', async () => {
      const from = newPeer();
      const statuses = new Set<number>();
      for (let i = 0; i < 31; i++) {
        const r = await auth('/token?grant_type=password', { email: uniqueEmail(), password: 'whatever' }, from);
        statuses.add(r.status);
        if (i < 30) expect(r.status).toBe(400);
        else expect(r.status).toBe(429);
      }
      expect(statuses).toEqual(new Set([400, 429]));
    });

    it('believes X-Forwarded-For only from inside the process or a trusted proxy, never from a socket peer', async () => {
      const from = newPeer();
      for (let i = 0; i < 10; i++) await auth('/signup', { email: uniqueEmail(), password: 'pw-123456' }, from);
      // The same request arriving over a socket from a client that claims another address.
      const asNetwork = (claimed: string, remote: string) =>
        stack.app.fetch(
          new Request(`${URL_BASE}/auth/v1/signup`, {
            method: 'POST',
            headers: { apikey: anonKey, 'Content-Type': 'application/json', 'X-Forwarded-For': claimed },
            body: JSON.stringify({ email: uniqueEmail(), password: 'pw-123456' }),
          }),
          { incoming: { socket: { remoteAddress: remote } } },
        );
      const socketPeer = newPeer();
      for (let i = 0; i < 10; i++) expect((await asNetwork(`198.51.100.${i}`, socketPeer)).status).toBe(200);
      expect((await asNetwork('198.51.100.200', socketPeer)).status).toBe(429);
    });

    it('limits confirmation mails per address', async () => {
      const email = uniqueEmail('mails');
      await auth('/signup', { email, password: 'password1' }, newPeer());
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await auth('/resend', { type: 'signup', email }, newPeer())).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    });
  });

  describe('passwords', () => {
    it('refuses a password over 72 bytes instead of cutting it, at sign-up, sign-in and change', async () => {
      const long = 'a'.repeat(72);
      const email = uniqueEmail('long');
      const from = newPeer();
      expect((await auth('/signup', { email, password: long }, from)).status).toBe(200);
      const over = await auth('/signup', { email: uniqueEmail(), password: `${long}b` }, from);
      expect(over.status).toBe(422);
      expect(await over.json()).toMatchObject({ code: 'weak_password', msg: expect.stringMatching(/72 bytes/) });
      // Multi-byte: 25 × 3 bytes = 75 bytes in 25 characters.
      expect((await auth('/signup', { email: uniqueEmail(), password: '€'.repeat(25) }, from)).status).toBe(422);
      // Today's hole: the first 72 bytes alone signed in.
      const cut = await auth('/token?grant_type=password', { email, password: `${long}anything` }, from);
      expect(cut.status).toBe(422);
      expect((await auth('/token?grant_type=password', { email, password: long }, from)).status).toBe(200);
    });

    it('hashes account passwords with bcrypt cost 10', async () => {
      const email = uniqueEmail('hash');
      await auth('/signup', { email, password: 'password1' }, newPeer());
      const { rows } = await stack.db.query<{ hash: string }>(
        'select encrypted_password as hash from auth.users where email = $1',
        [email],
      );
      expect(rows[0]?.hash).toMatch(/^\$2[aby]\$10\$/);
    });
  });
});
