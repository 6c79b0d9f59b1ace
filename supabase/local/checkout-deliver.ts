/**
 * How the test-mode card provider sends its events: signed with the run's webhook secret by
 * Stripe's own library and posted to billing-webhook, as the provider would, retrying a failed
 * delivery with back-off (the provider retries anything but a 2xx).
 */
import Stripe from 'stripe';
import type { StackContext } from './context.ts';
import { id, now, type Json } from './checkout-store.ts';

export type Deliver = (origin: string, type: string, object: Json, previous?: Json) => Promise<void>;

export function eventDeliverer(ctx: StackContext): Deliver {
  const signer = new Stripe(ctx.billing.secretKey);
  return async (origin, type, object, previous) => {
    const event = {
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object, ...(previous ? { previous_attributes: previous } : {}) },
    };
    const payload = JSON.stringify(event);
    for (let attempt = 0; attempt < 6; attempt++) {
      const header = await signer.webhooks.generateTestHeaderStringAsync({
        payload,
        secret: ctx.billing.webhookSecret,
      });
      try {
        const response = await ctx.root().fetch(
          new Request(`${origin}/functions/v1/billing-webhook`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
            body: payload,
          }),
        );
        if (response.ok) return;
        console.warn(`[checkout] ${type} delivery answered ${response.status}; retrying`);
      } catch (error) {
        console.warn(`[checkout] ${type} delivery failed; retrying`, error);
      }
      await new Promise((done) => setTimeout(done, 250 * 2 ** attempt));
    }
    console.error(`[checkout] gave up delivering ${event.id} (${type})`);
  };
}
