/**
 * Every Edge Function that takes input checks it with its valibot schema (src/domain/function-inputs.ts,
 * supabase/functions/_shared/input.ts): a body that is no JSON, an array instead of an object, a
 * wrong type, a missing field, an unknown choice, a huge number, an over-long text, a NUL or a lone
 * surrogate is a 400 whose message names the field, and nothing is queued, bought or stored.
 * Through the real local stack (its HTTP routes and gateway) with a signed-in user's token.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLEAR } from '../support/text-faults.ts';
import { dbKinds } from '../support/db.ts';
import { BASE } from './billing-stack.ts';
import { inputStackFor } from './input-stack.ts';

const SUPPORT = 'support@linkboard.local';
const CHECKOUT_ERROR = "plan must be 'pro' or 'team'.";
const CYCLE_ERROR = "billingCycle must be 'monthly' or 'yearly'.";
const NOT_JSON = 'The request body must be a JSON object.';
const DIR = 'dirId must be a directory id (uuid)';
const SESSION = 'sessionId must be a checkout session id (cs_…).';

/** A raw body (a string is sent as it is), and the 400's message: exact, or a pattern. */
type Case = [name: string, body: unknown, error: string | RegExp];
const raw = (text: string) => ({ raw: text });

const bodyCases: Record<string, Case[]> = {
  'send-email': [
    ['malformed JSON', raw('{"to":'), NOT_JSON],
    ['an array', [{ to: SUPPORT, subject: 's', body: 'b' }], 'Expected a JSON object {to, subject, body}.'],
    ['null', null, 'Expected a JSON object {to, subject, body}.'],
    ['a missing to', { subject: 's', body: 'b' }, 'A valid recipient address (to) is required'],
    ['a number as to', { to: 42, subject: 's', body: 'b' }, 'A valid recipient address (to) is required'],
    ['no address', { to: 'not-an-address', subject: 's', body: 'b' }, 'A valid recipient address (to) is required'],
    ['a missing subject', { to: SUPPORT, body: 'b' }, 'A subject is required'],
    ['a blank subject', { to: SUPPORT, subject: '  ', body: 'b' }, 'A subject is required'],
    ['a huge number as body', raw(`{"to":"${SUPPORT}","subject":"s","body":1e400}`), 'A body is required'],
    ['an object as body', { to: SUPPORT, subject: 's', body: { text: 'b' } }, 'A body is required'],
    [
      'an over-long subject',
      { to: SUPPORT, subject: 'x'.repeat(301), body: 'b' },
      'The subject must be at most 300 characters',
    ],
    [
      'an over-long body',
      { to: SUPPORT, subject: 's', body: 'x'.repeat(20_001) },
      'The body must be at most 20000 characters',
    ],
    ['a NUL in the subject', { to: SUPPORT, subject: 'a\u0000b', body: 'b' }, CLEAR],
    ['a lone surrogate in the body', { to: SUPPORT, subject: 's', body: 'a\ud800b' }, CLEAR],
    ['a NUL in the address', { to: `a\u0000@example.com`, subject: 's', body: 'b' }, /recipient address/],
  ],
  'create-checkout': [
    ['malformed JSON', raw('plan=pro'), NOT_JSON],
    ['an array', [{ plan: 'pro', billingCycle: 'monthly' }], 'Expected a JSON object {plan, billingCycle}.'],
    ['a missing plan', { billingCycle: 'monthly' }, 'plan is required.'],
    ['a missing cycle', { plan: 'pro' }, 'billingCycle is required.'],
    ['an unknown plan', { plan: 'gold', billingCycle: 'monthly' }, CHECKOUT_ERROR],
    ['an unknown cycle', { plan: 'pro', billingCycle: 'weekly' }, CYCLE_ERROR],
    ['a number as plan', { plan: 1, billingCycle: 'monthly' }, CHECKOUT_ERROR],
    ['a huge number as cycle', raw('{"plan":"pro","billingCycle":1e400}'), CYCLE_ERROR],
    ['a NUL in the plan', { plan: 'pro\u0000', billingCycle: 'monthly' }, CHECKOUT_ERROR],
    ['a lone surrogate in the cycle', { plan: 'pro', billingCycle: '\ud800' }, CYCLE_ERROR],
  ],
  'checkout-status': [
    ['malformed JSON', raw('{'), NOT_JSON],
    ['an array', ['cs_test_1'], 'Expected a JSON object {sessionId}.'],
    ['a missing session id', {}, 'sessionId is required.'],
    ['a number', { sessionId: 12 }, SESSION],
    ['not a session id', { sessionId: 'pi_123' }, SESSION],
    ['a NUL', { sessionId: 'cs_test_\u0000' }, SESSION],
    ['an over-long id', { sessionId: `cs_${'a'.repeat(251)}` }, SESSION],
  ],
  'billing-portal': [
    ['malformed JSON', raw('{"email":}'), NOT_JSON],
    ['an array', [], 'Expected a JSON object {email, returnUrl}.'],
    ['a number as email', { email: 5, returnUrl: `${BASE}/Profile` }, 'email must be text.'],
    ['null as email', { email: null }, 'email must be text.'],
    ['an object as returnUrl', { returnUrl: { href: BASE } }, 'returnUrl must be text.'],
    [
      'an over-long returnUrl',
      { returnUrl: `${BASE}/${'x'.repeat(2000)}` },
      'returnUrl must be at most 2000 characters.',
    ],
    ['a NUL in the email', { email: 'a\u0000@example.com' }, /^A character in email cannot be saved/],
    ['a lone surrogate in returnUrl', { returnUrl: `${BASE}/\ud800` }, /^A character in return address cannot/],
  ],
};

const queryCases: Record<string, [name: string, query: string, error: string][]> = {
  'public-directory': [
    ['no dirId', '', DIR],
    ['an empty dirId', '?dirId=', DIR],
    ['not a uuid', '?dirId=42', DIR],
    ['a NUL', '?dirId=%00', DIR],
    ['half of an emoji (cut UTF-8)', '?dirId=x%ED%A0%80', DIR],
    ['two ids', `?dirId=${randomUUID()}&dirId=${randomUUID()}`, DIR],
  ],
  'directory-voting-posts': [
    ['no dirId', '', DIR],
    ['not a uuid', '?dirId=1%20or%201=1', DIR],
    ['a NUL after an id', `?dirId=${randomUUID()}%00`, DIR],
    ['two ids', `?dirId=${randomUUID()}&dirId=${randomUUID()}`, DIR],
  ],
};

describe.each(dbKinds)('the functions refuse bad input with a 400 naming the field (%s)', (kind) => {
  const t = inputStackFor(kind);

  describe.each(Object.keys(bodyCases))('%s', (name) => {
    it.each(bodyCases[name]!)('answers %s with 400', async (_case, body, error) => {
      const before = await t.stored();
      const sent = typeof body === 'object' && body !== null && 'raw' in body ? String(body.raw) : JSON.stringify(body);
      const answer = await t.stack.call(`${BASE}/functions/v1/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${t.user.token}` },
        body: sent,
      });
      expect(answer.status).toBe(400);
      const message = ((await answer.json()) as { error: string }).error;
      if (typeof error === 'string') expect(message).toBe(error);
      else expect(message).toMatch(error);
      expect(await t.stored()).toEqual(before);
    });
  });

  describe.each(Object.keys(queryCases))('%s', (name) => {
    it.each(queryCases[name]!)('answers %s with 400', async (_case, query, error) => {
      const answer = await t.stack.call(`${BASE}/functions/v1/${name}${query}`, {
        headers: { Authorization: `Bearer ${t.user.token}` },
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error });
    });
  });

  it('still takes good input: a mail to support is queued, checkout starts', async () => {
    const mail = await t.stack.post('/api/send-email', { to: ` ${SUPPORT} `, subject: ' Hi ', body: 'Text' });
    expect(mail.status).toBe(200);
    const queued = await t.db.query<{ to_address: string; subject: string }>(
      'select to_address, subject from public.outgoing_mail where id = $1',
      [((await mail.json()) as { id: string }).id],
    );
    expect(queued.rows).toEqual([{ to_address: SUPPORT, subject: 'Hi' }]);
    const checkout = await t.stack.post(
      '/functions/v1/create-checkout',
      { plan: 'team', billingCycle: 'yearly' },
      t.user.token,
    );
    expect(checkout.status).toBe(200);
    expect(((await checkout.json()) as { url: string }).url).toMatch(/\/_checkout\/pay\/cs_test_/);
  });
});
