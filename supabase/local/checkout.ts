/**
 * /_checkout: the local stack's test-mode card provider (design 5), used when no provider key is
 * set. It answers the part of Stripe's API the billing functions call through Stripe's own library
 * (checkout sessions, billing portal sessions, subscriptions), shows a checkout page and a portal
 * page, and sends the events a real provider would, signed with the webhook secret, to the same
 * billing-webhook function. Nothing is charged; the pages say so.
 *
 *   POST /_checkout/v1/checkout/sessions        (secret key) a checkout session → {id, url, ...}
 *   GET  /_checkout/v1/checkout/sessions/:id    (secret key) a checkout session: paid or not
 *   POST /_checkout/v1/billing_portal/sessions  (secret key) a portal session → {id, url, ...}
 *   GET  /_checkout/v1/subscriptions/:id        (secret key) a subscription
 *   POST /_checkout/v1/subscriptions/:id        (secret key) cancel_at_period_end set or cleared
 *   GET|POST /_checkout/pay/:id                 the checkout page: pay or cancel
 *   GET|POST /_checkout/portal/:id              the portal: switch plan or cycle, cancel at the
 *                                               period's end, renew (checkout-portal.ts)
 *   POST /_checkout/test-clock/advance          (service-role key) {user_id}: the end of the
 *                                               current period of the user's subscriptions, as
 *                                               Stripe's test clocks reach it (for tests)
 *
 * Its objects live in the database (schema _checkout, closed to every API role), so a restart of
 * `npm start` keeps the customer's subscription.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { StackContext } from './context.ts';
import { eventDeliverer } from './checkout-deliver.ts';
import { escape, page, pageCsp } from './checkout-pages.ts';
import { portalRoutes } from './checkout-portal.ts';
import {
  Store,
  at,
  id,
  money,
  now,
  parseStripeForm,
  priceById,
  safeEqual,
  subscriptionItem,
  type CheckoutSession,
  type Json,
  type PortalSession,
  type Subscription,
} from './checkout-store.ts';
import { endPeriod, setCancelAtPeriodEnd } from './checkout-subscriptions.ts';
import {
  checkoutSessionForm,
  formInput,
  portalSessionForm,
  stripeError,
  subscriptionUpdateForm,
  testClockBody,
} from './checkout-inputs.ts';

/** A checkout session as the API shows it (without what the test provider keeps for itself). */
function visibleSession(session: CheckoutSession): Json {
  const { price: _price, subscription_metadata: _metadata, ...visible } = session;
  return visible;
}

export function checkoutApp(ctx: StackContext): Hono {
  const app = new Hono();
  const store = new Store(ctx.db);
  const deliver = eventDeliverer(ctx);

  const openSession = async (sessionId: string) => {
    const session = await store.get<CheckoutSession>('checkout_session', sessionId);
    if (session && session.status === 'open' && session.expires_at < now()) session.status = 'expired';
    return session;
  };

  // The provider's API: only the secret key opens it.
  app.use('/v1/*', async (c, next) => {
    const key = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
    if (!safeEqual(key, ctx.billing.secretKey)) return stripeError(c, 401, 'Invalid API Key provided.');
    const idempotencyKey = c.req.header('Idempotency-Key');
    if (c.req.method === 'POST' && idempotencyKey) {
      const seen = await store.get<Json>('idempotency', `idem_${c.req.path}_${idempotencyKey}`);
      if (seen) return c.json(seen);
      await next();
      if (c.res.ok) {
        await store.put('idempotency', `idem_${c.req.path}_${idempotencyKey}`, (await c.res.clone().json()) as Json);
      }
      return;
    }
    await next();
  });

  app.post('/v1/checkout/sessions', async (c) => {
    const input = formInput(checkoutSessionForm, parseStripeForm(await c.req.text()));
    if (!input.ok) return stripeError(c, 400, input.message, input.param);
    const form = input.value;
    const price = priceById(form.line_items[0].price)!;
    const customer = form.customer ?? null;
    if (customer && !(await store.get('customer', customer))) {
      return stripeError(c, 400, `No such customer: '${customer}'`, 'customer');
    }
    const session: CheckoutSession = {
      id: id('cs_test'),
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer,
      customer_email: form.customer_email ?? null,
      client_reference_id: form.client_reference_id ?? null,
      subscription: null,
      metadata: form.metadata ?? {},
      subscription_metadata: form.subscription_data?.metadata ?? {},
      amount_total: price.unit_amount,
      currency: 'usd',
      price: price.id,
      success_url: form.success_url,
      cancel_url: form.cancel_url,
      url: null,
      created: now(),
      expires_at: now() + 24 * 3600,
      livemode: false,
    };
    session.url = `${new URL(c.req.url).origin}/_checkout/pay/${session.id}`;
    await store.put('checkout_session', session.id, session);
    return c.json(session);
  });

  app.get('/v1/checkout/sessions/:id', async (c) => {
    const session = await openSession(c.req.param('id'));
    return session
      ? c.json(visibleSession(session))
      : stripeError(c, 404, `No such checkout.session: '${c.req.param('id')}'`);
  });

  app.get('/v1/subscriptions/:id', async (c) => {
    const subscription = await store.get<Subscription>('subscription', c.req.param('id'));
    return subscription ? c.json(subscription) : stripeError(c, 404, `No such subscription: '${c.req.param('id')}'`);
  });

  app.post('/v1/subscriptions/:id', async (c) => {
    const subscription = await store.get<Subscription>('subscription', c.req.param('id'));
    if (!subscription) return stripeError(c, 404, `No such subscription: '${c.req.param('id')}'`);
    // cancel_at_period_end=true|false, or cancel_at= (empty: no cancellation date), as Stripe takes them.
    const input = formInput(subscriptionUpdateForm, parseStripeForm(await c.req.text()));
    if (!input.ok) return stripeError(c, 400, input.message, 'cancel_at_period_end');
    const flag = input.value;
    const origin = new URL(c.req.url).origin;
    return c.json(await setCancelAtPeriodEnd(store, deliver, origin, subscription, flag === 'true'));
  });

  // The test clock: an operator (the service-role key) moves a user's subscriptions to the end of
  // their period, so tests see what happens then without waiting a month or a year.
  app.post('/test-clock/advance', async (c) => {
    const key = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
    if (!safeEqual(key, ctx.keys.serviceRoleKey)) return stripeError(c, 401, 'The service-role key is required.');
    const input = formInput(testClockBody, await c.req.json().catch(() => null));
    if (!input.ok) return stripeError(c, 400, input.message, 'user_id');
    const userId = input.value.user_id;
    const origin = new URL(c.req.url).origin;
    const advanced = [];
    for (const subscription of await store.liveSubscriptionsOfUser(userId)) {
      const after = await endPeriod(store, deliver, origin, subscription);
      advanced.push({ id: after.id, status: after.status });
    }
    return c.json({ subscriptions: advanced });
  });

  app.post('/v1/billing_portal/sessions', async (c) => {
    const input = formInput(portalSessionForm, parseStripeForm(await c.req.text()));
    if (!input.ok) return stripeError(c, 400, input.message, input.param);
    const form = input.value;
    const customer = form.customer;
    if (!(await store.get('customer', customer))) {
      return stripeError(c, 400, `No such customer: '${customer}'`, 'customer');
    }
    const flowData = form.flow_data as Json | undefined;
    const confirm = flowData?.subscription_update_confirm as Json | undefined;
    const confirmItem = at(confirm?.items, 0);
    const afterCompletion = flowData?.after_completion as Json | undefined;
    const session: PortalSession = {
      id: id('bps'),
      object: 'billing_portal.session',
      customer,
      return_url: form.return_url ?? ctx.siteUrl,
      url: '',
      created: now(),
      expires_at: now() + 3600,
      livemode: false,
      flow:
        flowData?.type === 'subscription_update_confirm' && confirm && confirmItem && priceById(confirmItem.price)
          ? {
              type: 'subscription_update_confirm',
              subscription_update_confirm: {
                subscription: String(confirm.subscription ?? ''),
                items: [{ id: String(confirmItem.id ?? ''), price: String(confirmItem.price) }],
              },
              after_completion: afterCompletion
                ? {
                    type: String(afterCompletion.type ?? ''),
                    redirect: { return_url: String((afterCompletion.redirect as Json | undefined)?.return_url ?? '') },
                  }
                : undefined,
            }
          : null,
    };
    session.url = `${new URL(c.req.url).origin}/_checkout/portal/${session.id}`;
    await store.put('portal_session', session.id, session);
    return c.json(session);
  });

  // The pages. The ids in their paths are unguessable and expire; their forms post to themselves.
  app.use('/pay/*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', pageCsp(ctx.siteUrl));
    c.header('Cache-Control', 'no-store');
  });
  app.use('/portal/*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', pageCsp(ctx.siteUrl));
    c.header('Cache-Control', 'no-store');
  });

  app.get('/pay/:id', async (c) => {
    const session = await openSession(c.req.param('id'));
    if (!session) return c.html(page('Checkout not found', '<h1>This checkout does not exist.</h1>'), 404);
    const price = priceById(session.price);
    if (session.status !== 'open' || !price) {
      return c.html(
        page(
          'Checkout closed',
          `<h1>This checkout is ${session.status === 'complete' ? 'already paid' : 'no longer open'}.</h1>
<p><a href="${escape(session.status === 'complete' ? session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id) : session.cancel_url)}">Return to Linkboard</a></p>`,
        ),
        410,
      );
    }
    return c.html(
      page(
        'Checkout',
        `<h1>Linkboard ${escape(price.label.split(',')[0] ?? '')}</h1>
<div class="box"><dl>
<dt>Plan</dt><dd>${escape(price.label)}</dd>
<dt>Total due today</dt><dd>${money(price.unit_amount)}</dd>
<dt>Then</dt><dd>${money(price.unit_amount)} every ${price.interval}, until you cancel</dd>
<dt>Email</dt><dd>${escape(session.customer_email ?? 'your account address')}</dd>
</dl>
<form method="post"><div class="actions">
<button type="submit" name="action" value="pay">Pay ${money(price.unit_amount)}</button>
<button type="submit" name="action" value="cancel" class="secondary">Cancel and go back</button>
</div></form></div>`,
      ),
    );
  });

  app.post('/pay/:id', async (c) => {
    const session = await openSession(c.req.param('id'));
    const price = session && priceById(session.price);
    if (!session || !price || session.status !== 'open') return c.redirect(c.req.url, 303);
    const form = await c.req.parseBody();
    if (form.action !== 'pay') return c.redirect(session.cancel_url, 303);

    const origin = new URL(c.req.url).origin;
    let customer = session.customer;
    if (!customer) {
      customer = id('cus');
      await store.put('customer', customer, {
        id: customer,
        object: 'customer',
        email: session.customer_email,
        created: now(),
      });
    }
    const subscription: Subscription = {
      id: id('sub'),
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      created: now(),
      livemode: false,
      metadata: session.subscription_metadata,
      items: { object: 'list', data: [subscriptionItem(price, now())] },
    };
    await store.put('subscription', subscription.id, subscription);
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscription.id });
    await store.put('checkout_session', session.id, session);
    await deliver(origin, 'checkout.session.completed', visibleSession(session));
    await deliver(origin, 'customer.subscription.created', subscription);
    // As Stripe does, the success URL's {CHECKOUT_SESSION_ID} becomes the session's id.
    return c.redirect(session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id), 303);
  });

  portalRoutes(app, store, deliver);

  return app;
}

/** The test provider's keys for one run: made at random, never written anywhere. */
export function testBillingKeys(): { secretKey: string; webhookSecret: string } {
  return {
    secretKey: `sk_test_local_${randomBytes(24).toString('base64url')}`,
    webhookSecret: `whsec_${randomBytes(24).toString('base64url')}`,
  };
}
