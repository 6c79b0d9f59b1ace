import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonKey, startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';
import type { MailboxMessage } from '../../supabase/local/mailbox.ts';
import { confirmEmail } from '../support/confirm-email.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const SUPPORT = 'support@linkboard.local';

async function mailbox(to?: string): Promise<MailboxMessage[]> {
  const res = await stack.fetch(`${URL_BASE}/_mailbox/messages.json${to ? `?to=${encodeURIComponent(to)}` : ''}`);
  return (await res.json()) as MailboxMessage[];
}

describe('send-email', () => {
  it('lets an anonymous visitor write to support only', async () => {
    const anon = stack.client();
    const ok = await anon.functions.invoke('send-email', {
      body: { to: SUPPORT, subject: 'Hello', body: 'Visit https://example.com/x now.' },
    });
    expect(ok.error).toBeNull();
    expect(ok.data).toMatchObject({ ok: true, id: expect.any(String) });
    const [mail] = await mailbox(SUPPORT);
    expect(mail).toMatchObject({ id: ok.data.id, to: SUPPORT, subject: 'Hello', sender_id: null });

    const refused = await anon.functions.invoke('send-email', {
      body: { to: 'someone@example.com', subject: 'Hi', body: 'x' },
    });
    expect(refused.error).not.toBeNull();
    expect((refused.error as { context: Response }).context.status).toBe(403);
    expect(await mailbox('someone@example.com')).toEqual([]);
  });

  it('lets a signed-in user mail only whom the product mails for them: someone they invited, themselves once confirmed, support', async () => {
    const client = stack.client();
    const email = uniqueEmail();
    const { data } = await client.auth.signUp({ email, password: 'password1' });
    const owner = data.user!.id;
    const send = (to: string, subject = 'Invitation') =>
      client.functions.invoke('send-email', {
        body: { to, subject, body: 'Join: http://127.0.0.1/Links/ann/dir/1' },
      });

    // A stranger: no open relay (it was one: any account could mail anyone, 50 an hour).
    const stranger = uniqueEmail('stranger');
    const refused = (await send(stranger)).error as { context: Response };
    expect(refused.context.status).toBe(403);
    expect(await refused.context.json()).toEqual({
      error: 'You can send mail only to people you invited, to yourself, or to support.',
    });
    expect(await mailbox(stranger)).toEqual([]);
    // Their own address, before it is confirmed: refused too (anyone can sign up with any address).
    expect(((await send(email, 'Event Created')).error as { context: Response }).context.status).toBe(403);

    // Once the server has recorded the invite in a directory they own, the invitation may go.
    const friend = uniqueEmail('friend');
    const { rows } = await stack.db.query<{ id: string }>(
      `insert into public.link_directories (name, owner_id) values ('Shared', $1) returning id`,
      [owner],
    );
    await stack.db.query(
      `insert into public.directory_members (directory_id, user_email, role, inviter_id) values ($1, $2, 'viewer', $3)`,
      [rows[0]!.id, friend, owner],
    );
    expect((await send(friend)).data).toMatchObject({ ok: true });
    expect(await mailbox(friend)).toEqual([
      expect.objectContaining({ to: friend, subject: 'Invitation', sender_id: owner }),
    ]);
    const page = await (await stack.fetch(`${URL_BASE}/_mailbox`)).text();
    expect(page).toContain('<a href="http://127.0.0.1/Links/ann/dir/1">');

    // Removed from the directory: no more mail.
    await stack.db.query('update public.directory_members set deleted_at = now() where user_email = $1', [friend]);
    expect(((await send(friend)).error as { context: Response }).context.status).toBe(403);

    await confirmEmail(stack.fetch, URL_BASE, email);
    expect((await send(email, 'Event Created')).data).toMatchObject({ ok: true });
    expect((await send(SUPPORT, 'Contact')).data).toMatchObject({ ok: true });
  });

  it('validates, answers preflights and is reachable at /api/send-email without a key', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      stack.fetch(`${URL_BASE}/api/send-email`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const missing = await post({ to: SUPPORT, subject: '', body: 'x' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'A subject is required' });
    expect((await post({ to: 'not-an-address', subject: 's', body: 'b' })).status).toBe(400);
    const malformed = await stack.fetch(`${URL_BASE}/api/send-email`, { method: 'POST', body: '{' });
    expect(malformed.status).toBe(400);
    expect((await post({ to: SUPPORT, subject: 'Contact', body: 'From the form' })).status).toBe(200);
    expect((await post({ to: SUPPORT, subject: 's', body: 'b' }, { Authorization: 'Bearer forged' })).status).toBe(401);
    const preflight = await stack.fetch(`${URL_BASE}/functions/v1/send-email`, {
      method: 'OPTIONS',
      headers: {
        Origin: URL_BASE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, apikey, content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    // The app's own origin only: another site's page cannot call it.
    expect(preflight.headers.get('access-control-allow-origin')).toBe(URL_BASE);
    const noJwt = await stack.fetch(`${URL_BASE}/functions/v1/send-email`, { method: 'POST', body: '{}' });
    expect(noJwt.status).toBe(401);
    const unknown = await stack.fetch(`${URL_BASE}/functions/v1/nope`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${anonKey}` },
    });
    expect(unknown.status).toBe(404);
  });

  it('limits a signed-in sender to 50 mails an hour, in the database: 429 with Retry-After and a plain message', async () => {
    const client = stack.client();
    await client.auth.signUp({ email: uniqueEmail(), password: 'password1' });
    const send = () => client.functions.invoke('send-email', { body: { to: SUPPORT, subject: 's', body: 'b' } });
    for (let i = 0; i < 50; i++) expect((await send()).error).toBeNull();
    const over = (await send()).error as { context: Response };
    expect(over.context.status).toBe(429);
    expect(Number(over.context.headers.get('Retry-After'))).toBeGreaterThan(3000);
    expect(await over.context.json()).toEqual({
      error: 'Too many emails sent. Please try again later.',
      reason: 'throttled',
    });
  });

  it('limits anonymous mail to 10 an hour per client address', async () => {
    const post = (address: string) =>
      stack.fetch(`${URL_BASE}/api/send-email`, {
        method: 'POST',
        // In-process requests have no socket: the stack keeps their X-Forwarded-For as its own.
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
        body: JSON.stringify({ to: SUPPORT, subject: 'Contact', body: 'From the form' }),
      });
    for (let i = 0; i < 10; i++) expect((await post('198.51.100.77')).status).toBe(200);
    const over = await post('198.51.100.77');
    expect(over.status).toBe(429);
    expect(over.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect((await post('198.51.100.78')).status).toBe(200);
  });
});
