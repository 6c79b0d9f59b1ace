/**
 * Text the database cannot store, a NUL character or a lone surrogate, in every place the API
 * stores text: the functions (send-email, with and without a session), every text argument of
 * every sync_push mutation, every text argument of the RPCs a client may call, and the sign-up's
 * e-mail, password and metadata. Each is a 4xx with a clear message, never a 5xx, and nothing is
 * written or queued. Through the in-process stack with the real supabase-js client, on PGlite and
 * on PostgreSQL when DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../support/db.ts';
import { CLEAR, FAULTS, mutationArgs, withEachTextReplaced, type Args } from '../support/text-faults.ts';
import { snapshot } from '../sync-server/sync.ts';
import { ALLOWED_RPCS } from './fuzz-rpcs.ts';
import { startTestStack, uniqueEmail, URL_BASE, type TestStack } from './stack.ts';
import { signUpConfirmed, type StackUser } from './stack-users.ts';

const SUPPORT = 'support@linkboard.local';

describe.each(dbKinds)('unstorable text on %s', (kind) => {
  let stack: TestStack;
  let user: StackUser;
  beforeAll(async () => {
    stack = await startTestStack({ kind });
    user = await signUpConfirmed(stack.fetch, stack.db, { base: URL_BASE, prefix: 'text' });
  });
  afterAll(() => stack.close());

  const queuedMail = async () =>
    Number((await stack.db.query<{ n: string }>('select count(*) as n from public.outgoing_mail')).rows[0]!.n);

  describe.each(FAULTS)('%s', (_fault, bad) => {
    it('is a 400 from send-email, with or without a session, and no mail is queued', async () => {
      const before = await queuedMail();
      const mails = [
        { to: SUPPORT, subject: bad, body: 'Body' },
        { to: SUPPORT, subject: 'Subject', body: bad },
        { to: `a${bad}@example.com`, subject: 'Subject', body: 'Body' },
      ];
      for (const mail of mails) {
        for (const path of ['/functions/v1/send-email', '/api/send-email']) {
          const headers: Record<string, string> = { 'Content-Type': 'application/json' };
          if (path.startsWith('/functions')) headers.Authorization = `Bearer ${user.token}`;
          const answer = await stack.fetch(`${URL_BASE}${path}`, {
            method: 'POST',
            headers,
            body: JSON.stringify(mail),
          });
          expect({ path, mail, status: answer.status }).toEqual({ path, mail, status: 400 });
          expect(((await answer.json()) as { error: string }).error).toMatch(CLEAR);
        }
        const { error, response } = await user.client.functions.invoke('send-email', { body: mail });
        expect(error).not.toBeNull();
        expect(response?.status).toBe(400);
      }
      expect(await queuedMail()).toBe(before);
    });

    it('refuses a push with it in any text argument of any mutation with a 400, applying nothing', async () => {
      const before = await snapshot(stack.db);
      const good = { id: randomUUID(), name: 'directory.create', args: { id: randomUUID(), name: 'Kept' } };
      for (const [name, args] of Object.entries(mutationArgs())) {
        for (const { path, args: badArgs } of withEachTextReplaced(args, bad)) {
          const { error, status } = await user.client.rpc('sync_push', {
            p_mutations: [good, { id: randomUUID(), name, args: badArgs }],
          });
          expect({ name, path, status, code: error?.code }).toEqual({
            name,
            path,
            status: 400,
            code: bad.includes('\u0000') ? '22P05' : '22P02',
          });
        }
      }
      expect(await snapshot(stack.db)).toEqual(before);
    });

    it('is a 400 in every text argument of every RPC a client may call, and nothing is written', async () => {
      const { rows } = await stack.db.query<{ name: string; args: string[]; types: string[] }>(
        `select p.proname as name, coalesce(p.proargnames, '{}') as args,
                array(select format_type(t, null) from unnest(p.proargtypes) t) as types
           from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname = any($1)`,
        [Object.keys(ALLOWED_RPCS)],
      );
      const sample: Record<string, unknown> = { uuid: randomUUID(), text: 'x', integer: 1, boolean: true };
      let checked = 0;
      const before = await snapshot(stack.db);
      for (const fn of rows) {
        for (const [index, arg] of fn.args.entries()) {
          const type = fn.types[index] ?? '';
          if (!['text', 'jsonb', 'json'].includes(type)) continue;
          const args = Object.fromEntries(fn.args.map((name, i) => [name, sample[fn.types[i] ?? ''] ?? null]));
          args[arg] = type === 'text' ? bad : { value: bad };
          for (const client of [user.client, stack.client()]) {
            const { status } = await client.rpc(fn.name, args);
            // 401/403 for an anonymous caller where the function is not theirs; never a 5xx, never a 2xx.
            expect({ fn: fn.name, arg, ok: status >= 400 && status < 500 }).toEqual({ fn: fn.name, arg, ok: true });
          }
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(10);
      expect(await snapshot(stack.db)).toEqual(before);
    });

    it('is a 400 from the contact form, with the database unchanged', async () => {
      const before = await snapshot(stack.db);
      for (const field of ['p_name', 'p_email', 'p_message']) {
        const args: Args = { p_name: 'Ann', p_email: 'ann@example.com', p_message: 'Hello', [field]: bad };
        const { error, status } = await stack.client().rpc('submit_contact_message', args);
        expect({ field, status }).toEqual({ field, status: 400 });
        expect(error?.code).toBe(bad.includes('\u0000') ? '22P05' : '22P02');
      }
      expect(await snapshot(stack.db)).toEqual(before);
    });

    it('is a 400 in the sign-up e-mail, password or metadata, and no account is made', async () => {
      const users = async () =>
        Number((await stack.db.query<{ n: string }>('select count(*) as n from auth.users')).rows[0]!.n);
      const before = await users();
      const attempts = [
        { email: `new${bad}@example.com`, password: 'password-123' },
        { email: uniqueEmail('text'), password: `password-${bad}` },
        { email: uniqueEmail('text'), password: 'password-123', options: { data: { full_name: bad } } },
      ];
      for (const attempt of attempts) {
        const { data, error } = await stack.client().auth.signUp(attempt);
        expect(data.user).toBeNull();
        expect({ status: error?.status, code: error?.code }).toEqual({ status: 400, code: 'validation_failed' });
        expect(error?.message).toMatch(CLEAR);
      }
      const { error } = await user.client.auth.updateUser({ data: { bio: bad } });
      expect(error?.status).toBe(400);
      expect(await users()).toBe(before);
    });
  });
});
