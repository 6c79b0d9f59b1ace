import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonKey, startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';
import type { MailboxMessage } from '../../supabase/local/mailbox.ts';

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

  it('lets a signed-in user write to anyone, recorded with the sender', async () => {
    const client = stack.client();
    const { data } = await client.auth.signUp({ email: uniqueEmail(), password: 'password1' });
    const to = uniqueEmail('friend');
    const sent = await client.functions.invoke('send-email', {
      body: { to, subject: 'Invitation', body: 'Join: http://127.0.0.1/Links/ann/dir/1' },
    });
    expect(sent.data).toMatchObject({ ok: true });
    expect(await mailbox(to)).toEqual([
      expect.objectContaining({ to, subject: 'Invitation', sender_id: data.user!.id }),
    ]);

    const page = await (await stack.fetch(`${URL_BASE}/_mailbox`)).text();
    expect(page).toContain('Invitation');
    expect(page).toContain('<a href="http://127.0.0.1/Links/ann/dir/1">');
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
    const send = () =>
      client.functions.invoke('send-email', { body: { to: 'x@example.com', subject: 's', body: 'b' } });
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
