/**
 * readBillingEvent: what the webhook reads of a verified Stripe event, for the cancellation of a
 * paid plan. Portals cancel at the period's end (cancel_at_period_end) or, newer ones, at a date
 * (cancel_at); either way the plan runs to that end, which is what the profile shows.
 */
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { LOCAL_PRICE_IDS, readBillingEvent, type BillingConfig } from '../../supabase/functions/_shared/billing.ts';

const config: BillingConfig = {
  secretKey: 'sk_test_x',
  webhookSecret: 'whsec_x',
  prices: LOCAL_PRICE_IDS,
  siteUrl: 'http://127.0.0.1:54321',
};
const periodEnd = Date.parse('2027-11-26T10:00:00+00:00') / 1000;

function subscriptionEvent(type: string, fields: Record<string, unknown>): Stripe.Event {
  // Only the fields Stripe sends that readBillingEvent reads: not the whole Stripe.Event type.
  return {
    id: 'evt_1',
    object: 'event',
    type,
    created: periodEnd - 86_400,
    data: {
      object: {
        id: 'sub_1',
        object: 'subscription',
        customer: 'cus_1',
        status: 'active',
        metadata: { user_id: '00000000-0000-4000-8000-000000000001' },
        items: {
          data: [
            { id: 'si_1', current_period_end: periodEnd, price: { id: LOCAL_PRICE_IDS.pro_yearly, unit_amount: 5000 } },
          ],
        },
        cancel_at_period_end: false,
        cancel_at: null,
        ...fields,
      },
    },
  } as unknown as Stripe.Event;
}

describe('readBillingEvent and cancellation', () => {
  it('reads a renewing subscription as not cancelling, ending its period at current_period_end', () => {
    expect(readBillingEvent(config, subscriptionEvent('customer.subscription.updated', {}))).toMatchObject({
      plan: 'pro',
      billing_cycle: 'yearly',
      status: 'active',
      period_end: periodEnd,
      cancel_at_period_end: false,
    });
  });

  it('reads cancel_at_period_end, and a cancel_at date (newer portals), as ending at that date', () => {
    expect(
      readBillingEvent(config, subscriptionEvent('customer.subscription.updated', { cancel_at_period_end: true })),
    ).toMatchObject({ status: 'active', period_end: periodEnd, cancel_at_period_end: true });
    expect(
      readBillingEvent(config, subscriptionEvent('customer.subscription.updated', { cancel_at: periodEnd - 3600 })),
    ).toMatchObject({ status: 'active', period_end: periodEnd - 3600, cancel_at_period_end: true });
  });

  it('reads the end of the subscription as no longer cancelling, and a checkout as not saying', () => {
    const ended = subscriptionEvent('customer.subscription.deleted', {
      status: 'canceled',
      cancel_at_period_end: true,
    });
    expect(readBillingEvent(config, ended)).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
    // As above: the fields of Stripe's checkout event that readBillingEvent reads.
    const checkout = {
      id: 'evt_2',
      type: 'checkout.session.completed',
      created: periodEnd,
      data: { object: { mode: 'subscription', payment_status: 'paid', metadata: {} } },
    } as unknown as Stripe.Event;
    expect(readBillingEvent(config, checkout).cancel_at_period_end).toBeNull();
  });
});
