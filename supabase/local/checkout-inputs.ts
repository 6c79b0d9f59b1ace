/**
 * What the test-mode card provider (/_checkout) takes, as valibot schemas over Stripe's form bodies
 * (parseStripeForm) and the test clock's JSON: the first issue is Stripe's 400
 * `{error: {type: 'invalid_request_error', message, param}}`, param in Stripe's form notation
 * (`line_items[0][price]`). Whether a customer or subscription exists is the store's to say.
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { priceById } from './checkout-store.ts';

export function stripeError(c: Context, status: 400 | 401 | 404, message: string, param?: string) {
  return c.json({ error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } }, status);
}

const URLS = 'success_url and cancel_url are required.';
/** A non-empty string; a missing one is '' (so the message names it). */
const given = (message: string) => v.optional(v.pipe(v.string(message), v.nonEmpty(message)), '');
const optionalText = v.pipe(
  v.optional(v.string()),
  v.transform((value) => value || null),
);
/** Form fields under a key (`metadata[plan]=pro`): only the string ones count. */
const stringMap = v.pipe(
  v.optional(v.unknown()),
  v.transform((value) =>
    Object.fromEntries(
      Object.entries(typeof value === 'object' && value !== null ? value : {}).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    ),
  ),
);

/** POST /v1/checkout/sessions: a subscription at one of the provider's prices. */
export const checkoutSessionForm = v.object({
  mode: v.literal('subscription', 'Only subscription mode is supported.'),
  // A missing list, item or price is the price '' (Stripe names line_items[0][price] either way).
  line_items: v.optional(
    v.object({
      0: v.optional(
        v.object({
          price: v.optional(
            v.pipe(
              v.string((issue) => `No such price: '${String(issue.input)}'`),
              v.check(
                (price) => priceById(price) !== undefined,
                (issue) => `No such price: '${String(issue.input)}'`,
              ),
            ),
            '',
          ),
        }),
        {},
      ),
    }),
    {},
  ),
  success_url: given(URLS),
  cancel_url: given(URLS),
  customer: optionalText,
  customer_email: optionalText,
  client_reference_id: optionalText,
  metadata: stringMap,
  subscription_data: v.optional(v.object({ metadata: stringMap }), { metadata: {} }),
});

/** POST /v1/subscriptions/:id: cancel_at_period_end=true|false, or cancel_at= (no date: not cancelled). */
const ONLY_CANCEL = 'Only cancel_at_period_end can be updated here.';
export const subscriptionUpdateForm = v.pipe(
  v.object({
    cancel_at: v.optional(v.string(ONLY_CANCEL)),
    cancel_at_period_end: v.optional(v.string(ONLY_CANCEL)),
  }),
  v.transform((form) => (form.cancel_at === '' ? 'false' : form.cancel_at_period_end)),
  v.picklist(['true', 'false'], ONLY_CANCEL),
);

/** POST /v1/billing_portal/sessions: for a customer, back to return_url (flow_data read as given). */
export const portalSessionForm = v.looseObject({
  customer: given("No such customer: ''"),
  return_url: optionalText,
});

/** POST /test-clock/advance {user_id}. */
export const testClockBody = v.object(
  {
    user_id: v.pipe(
      v.string('Expected {user_id}: a user id (uuid).'),
      v.regex(/^[0-9a-f-]{36}$/i, 'Expected {user_id}: a user id (uuid).'),
    ),
  },
  'Expected {user_id}: a user id (uuid).',
);

/** Stripe's name of the field an issue is about: `line_items[0][price]`. */
function paramOf(issue: v.BaseIssue<unknown>): string | undefined {
  const keys = (issue.path ?? []).map((item) => String(item.key));
  return keys.length === 0
    ? undefined
    : keys[0] +
        keys
          .slice(1)
          .map((key) => `[${key}]`)
          .join('');
}

export type FormInput<T> = { ok: true; value: T } | { ok: false; message: string; param?: string };

/** `value` parsed with `schema`, or the first issue's message and param, for stripeError. */
export function formInput<S extends v.GenericSchema>(schema: S, value: unknown): FormInput<v.InferOutput<S>> {
  const result = v.safeParse(schema, value);
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  return { ok: false, message: issue.message, param: paramOf(issue) };
}
