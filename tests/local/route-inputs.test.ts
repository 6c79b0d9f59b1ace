/**
 * The local stack's routes parse their input with valibot schemas (supabase/local/auth-inputs.ts,
 * checkout-inputs.ts, rest.ts, mailbox.ts) and answer a bad one with 400 in the family's
 * own shape: GoTrue's {code, error_code, msg} for /auth/v1, PostgREST's {code, message, details}
 * for /rest/v1, Stripe's {error: {type, message, param}} for /_checkout. Wrong types, missing
 * fields, arrays for objects, unknown choices, NUL and lone surrogates; nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { TEST_ANON_KEY, TEST_SERVICE_ROLE_KEY } from '../support/test-keys.ts';
import { dbKinds } from '../support/db.ts';
import { BASE } from './billing-stack.ts';
import { inputStackFor } from './input-stack.ts';

type Body = unknown;
const raw = (text: string) => ({ raw: text });
const bodyText = (body: Body) =>
  typeof body === 'object' && body !== null && 'raw' in body ? String(body.raw) : JSON.stringify(body);

const INVALID_EMAIL = 'Unable to validate email address: invalid format';
const SIGN_IN = 'You must provide either an email or phone number and a password';

/** [case, method and path, body, GoTrue's code, its msg]. */
const authCases: [string, string, Body, string, string | RegExp][] = [
  ['sign-up with an array', 'POST /signup', [{ email: 'a@example.com' }], 'bad_json', /expected an object/],
  [
    'sign-up without an email',
    'POST /signup',
    { password: 'password-1' },
    'validation_failed',
    'To signup, please provide your email',
  ],
  [
    'sign-up with a number as email',
    'POST /signup',
    { email: 7, password: 'password-1' },
    'validation_failed',
    'To signup, please provide your email',
  ],
  [
    'sign-up with no address',
    'POST /signup',
    { email: 'nobody', password: 'password-1' },
    'validation_failed',
    INVALID_EMAIL,
  ],
  [
    'sign-up with an over-long address',
    'POST /signup',
    { email: `${'a'.repeat(250)}@example.com`, password: 'password-1' },
    'validation_failed',
    INVALID_EMAIL,
  ],
  [
    'sign-up without a password',
    'POST /signup',
    { email: 'new@example.com' },
    'validation_failed',
    'Signup requires a valid password',
  ],
  [
    'sign-up with a number as password',
    'POST /signup',
    { email: 'new@example.com', password: 12345678 },
    'validation_failed',
    'Signup requires a valid password',
  ],
  [
    'sign-up with a NUL in the email',
    'POST /signup',
    { email: 'a\u0000@example.com', password: 'password-1' },
    'validation_failed',
    /cannot be saved/,
  ],
  [
    'sign-up with a lone surrogate in the metadata',
    'POST /signup',
    { email: 'b@example.com', password: 'password-1', data: { name: '\ud800' } },
    'validation_failed',
    /cannot be saved/,
  ],
  ['malformed JSON', 'POST /signup', raw('{"email"'), 'bad_json', /^Could not parse request body as JSON/],
  ['an unknown grant', 'POST /token?grant_type=magic', {}, 'unsupported_grant_type', 'unsupported_grant_type: magic'],
  [
    'sign-in without a password',
    'POST /token?grant_type=password',
    { email: 'a@example.com' },
    'validation_failed',
    SIGN_IN,
  ],
  [
    'sign-in with a number as email',
    'POST /token?grant_type=password',
    { email: 1e308, password: 'x' },
    'validation_failed',
    SIGN_IN,
  ],
  [
    'a refresh without a token',
    'POST /token?grant_type=refresh_token',
    { refresh_token: ['t'] },
    'validation_failed',
    'Refresh token is required',
  ],
  [
    'a resend of an unknown type',
    'POST /resend',
    { type: 'invite', email: 'a@example.com' },
    'validation_failed',
    'Missing one of these types: signup, email_change',
  ],
  [
    'a resend without an email',
    'POST /resend',
    { type: 'signup' },
    'validation_failed',
    'Resend requires an email or phone and a type',
  ],
  ['a resend to no address', 'POST /resend', { type: 'signup', email: 'x@y' }, 'validation_failed', INVALID_EMAIL],
];

/** The same with the user's token: PUT /user and the logout scope. */
const signedInAuthCases: [string, string, Body, string, string | RegExp][] = [
  ['an e-mail change to a number', 'PUT /user', { email: 5 }, 'validation_failed', INVALID_EMAIL],
  ['an e-mail change to null', 'PUT /user', { email: null }, 'validation_failed', INVALID_EMAIL],
  ['a number as the new password', 'PUT /user', { password: 123456789 }, 'validation_failed', 'password must be text.'],
  ['an array as metadata', 'PUT /user', { data: ['x'] }, 'validation_failed', 'data must be an object'],
  ['an unknown logout scope', 'POST /logout?scope=everyone', {}, 'validation_failed', /^Unsupported logout scope/],
];

const PRICE = "No such price: ''";
const ONLY_CANCEL = 'Only cancel_at_period_end can be updated here.';
/** [case, path, form body, Stripe's message, its param]. */
const checkoutCases: [string, string, string, string, string | undefined][] = [
  ['a payment session', '/v1/checkout/sessions', 'mode=payment', 'Only subscription mode is supported.', 'mode'],
  ['no price', '/v1/checkout/sessions', 'mode=subscription&success_url=a&cancel_url=b', PRICE, 'line_items[0][price]'],
  [
    'an unknown price',
    '/v1/checkout/sessions',
    'mode=subscription&line_items[0][price]=price_gold&success_url=a&cancel_url=b',
    "No such price: 'price_gold'",
    'line_items[0][price]',
  ],
  [
    'no return addresses',
    '/v1/checkout/sessions',
    'mode=subscription&line_items[0][price]=price_local_pro_monthly',
    'success_url and cancel_url are required.',
    'success_url',
  ],
  [
    'a portal without a customer',
    '/v1/billing_portal/sessions',
    'return_url=x',
    PRICE.replace('price', 'customer'),
    'customer',
  ],
  [
    'a portal for an empty customer',
    '/v1/billing_portal/sessions',
    'customer=',
    PRICE.replace('price', 'customer'),
    'customer',
  ],
  [
    'a subscription update to maybe',
    '/v1/subscriptions/{sub}',
    'cancel_at_period_end=maybe',
    ONLY_CANCEL,
    'cancel_at_period_end',
  ],
  [
    'a subscription update of a list',
    '/v1/subscriptions/{sub}',
    'cancel_at_period_end[0]=true',
    ONLY_CANCEL,
    'cancel_at_period_end',
  ],
  [
    'a subscription update of a date',
    '/v1/subscriptions/{sub}',
    'cancel_at=1900000000',
    ONLY_CANCEL,
    'cancel_at_period_end',
  ],
];

describe.each(dbKinds)('the local stack refuses bad input with a 400 in each route family’s shape (%s)', (kind) => {
  const t = inputStackFor(kind);

  const authCall = (route: string, body: Body, token?: string) => {
    const [method, path] = route.split(' ') as [string, string];
    return t.stack.call(`${BASE}/auth/v1${path}`, {
      method,
      headers: {
        apikey: TEST_ANON_KEY,
        'Content-Type': 'application/json',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: bodyText(body),
    });
  };

  it.each([...authCases.map((c) => [...c, false] as const), ...signedInAuthCases.map((c) => [...c, true] as const)])(
    '/auth/v1: %s',
    async (_case, route, body, code, msg, signedIn) => {
      const before = await t.stored();
      const answer = await authCall(route, body, signedIn ? t.user.token : undefined);
      expect(answer.status).toBe(400);
      const error = (await answer.json()) as { code: string; error_code: string; msg: string };
      expect({ code: error.code, error_code: error.error_code }).toEqual({ code, error_code: code });
      if (typeof msg === 'string') expect(error.msg).toBe(msg);
      else expect(error.msg).toMatch(msg);
      expect(await t.stored()).toEqual(before);
    },
  );

  it.each([
    ['an array', [1]],
    ['a string', 'p_x'],
    ['null', null],
    ['a huge number', 'huge'],
  ])('/rest/v1/rpc: arguments as %s are PostgREST’s PGRST102', async (_case, body) => {
    const answer = await t.stack.call(`${BASE}/rest/v1/rpc/submit_contact_message`, {
      method: 'POST',
      headers: { apikey: TEST_ANON_KEY, 'Content-Type': 'application/json' },
      body: body === 'huge' ? '1e400' : JSON.stringify(body),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      code: 'PGRST102',
      message: 'Empty or invalid json',
      details: 'The request body must be a JSON object',
    });
  });

  it.each(checkoutCases)('/_checkout: %s', async (_case, path, form, message, param) => {
    const { id } = (
      await t.db.query<{ id: string }>("select id from _checkout.objects where kind = 'subscription' limit 1")
    ).rows[0]!;
    const before = await t.stored();
    const answer = await t.stack.call(`${BASE}/_checkout${path.replace('{sub}', id)}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${t.stack.billing.secretKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: form,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) },
    });
    expect(await t.stored()).toEqual(before);
  });

  it.each([
    ['malformed JSON', '{'],
    ['an array', '[]'],
    ['no user_id', '{}'],
    ['a number', '{"user_id":12}'],
    ['a NUL', '{"user_id":"\\u0000"}'],
  ])('/_checkout/test-clock/advance: %s', async (_case, body) => {
    const answer = await t.stack.call(`${BASE}/_checkout/test-clock/advance`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_SERVICE_ROLE_KEY}`, 'Content-Type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      error: { type: 'invalid_request_error', message: 'Expected {user_id}: a user id (uuid).', param: 'user_id' },
    });
  });

  it.each([
    ['a NUL', '%00', /^A character in address cannot be saved/],
    ['an over-long address', 'a'.repeat(321), 'to must be at most 320 characters.'],
  ])('/_mailbox: ?to= with %s is a 400, not a failure', async (_case, to, error) => {
    for (const path of ['/_mailbox/messages.json', '/_mailbox']) {
      const answer = await t.stack.call(`${BASE}${path}?to=${to}`);
      expect(answer.status).toBe(400);
      const text = path.endsWith('.json') ? ((await answer.json()) as { error: string }).error : await answer.text();
      if (typeof error === 'string') expect(text).toBe(error);
      else expect(text).toMatch(error);
    }
  });
});
