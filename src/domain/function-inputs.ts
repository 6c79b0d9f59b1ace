/**
 * The inputs the client sends to the Edge Functions, as valibot schemas: written once, checked by
 * the function (a 400 naming the field) and giving the client's types, so the two cannot drift.
 */
import * as v from 'valibot';
import { choice, jsonObject, text } from './input-schema.ts';
import type { BillingCycle, PaidTier } from './plan-catalog.ts';

export const PAID_PLANS = ['pro', 'team'] as const satisfies readonly PaidTier[];
export const BILLING_CYCLES = ['monthly', 'yearly'] as const satisfies readonly BillingCycle[];

/** create-checkout's body. */
export const checkoutInput = jsonObject(
  { plan: choice('plan', PAID_PLANS), billingCycle: choice('billingCycle', BILLING_CYCLES) },
  '{plan, billingCycle}',
);
export type CheckoutInput = v.InferOutput<typeof checkoutInput>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAIL_SUBJECT_MAX = 300;
export const MAIL_BODY_MAX = 20_000;
const ADDRESS = 'A valid recipient address (to) is required';
const SUBJECT = 'A subject is required';
const BODY = 'A body is required';

/** send-email's body: the mail to queue, its address and subject trimmed. */
export const mailInput = jsonObject(
  {
    to: v.pipe(
      text('to', { label: 'recipient address', max: 255, wrongType: ADDRESS, tooLong: ADDRESS }),
      v.trim(),
      v.regex(EMAIL, ADDRESS),
    ),
    subject: v.pipe(
      text('subject', {
        max: MAIL_SUBJECT_MAX,
        wrongType: SUBJECT,
        tooLong: `The subject must be at most ${MAIL_SUBJECT_MAX} characters`,
      }),
      v.trim(),
      v.nonEmpty(SUBJECT),
    ),
    body: v.pipe(
      text('body', {
        max: MAIL_BODY_MAX,
        wrongType: BODY,
        tooLong: `The body must be at most ${MAIL_BODY_MAX} characters`,
      }),
      v.check((body) => body.trim() !== '', BODY),
    ),
  },
  '{to, subject, body}',
  { to: ADDRESS, subject: SUBJECT, body: BODY },
);
export type MailInput = v.InferOutput<typeof mailInput>;

const LINK_ID = 'link_id must be a link id (a UUID).';

/** link-preview's body: the link to read the page of; `retry` asks again for one that failed. */
export const linkPreviewInput = jsonObject(
  {
    link_id: v.pipe(v.string(LINK_ID), v.uuid(LINK_ID)),
    retry: v.optional(v.boolean('retry must be true or false.'), false),
  },
  '{link_id, retry?}',
);
export type LinkPreviewInput = v.InferOutput<typeof linkPreviewInput>;

/** What link-preview answers: the link's preview state after the ask. */
export type LinkPreviewState = 'done' | 'failed' | 'pending';

/** link-image's query: the link, and which of its pictures. */
export const linkImageQuery = jsonObject(
  {
    link: v.pipe(v.string('link must be a link id (a UUID).'), v.uuid('link must be a link id (a UUID).')),
    kind: v.picklist(['icon', 'image'], 'kind must be icon or image.'),
    v: v.optional(v.string()),
  },
  '{link, kind}',
);

/** check-links' body: `owner` checks only that user's links that are due; `{}` every owner's. */
export const checkLinksInput = jsonObject(
  {
    owner: v.optional(
      v.pipe(v.string('owner must be a user id (a UUID).'), v.uuid('owner must be a user id (a UUID).')),
    ),
  },
  '{owner?}',
);
