/**
 * /_checkout: the local stack's test-mode card provider (design 5), used when no provider key is
 * set. It answers the part of Stripe's API the billing functions call through Stripe's own library
 * (checkout sessions, billing portal sessions, subscriptions), shows a checkout page and a portal
 * page, and sends the events a real provider would, signed with the webhook secret, to the same
 * billing-webhook function. Nothing is charged; the pages say so.
 *
 *   POST /_checkout/v1/checkout/sessions        (secret key) a checkout session → {id, url, ...}
 *   POST /_checkout/v1/billing_portal/sessions  (secret key) a portal session → {id, url, ...}
 *   GET  /_checkout/v1/subscriptions/:id        (secret key) a subscription
 *   GET|POST /_checkout/pay/:id                 the checkout page: pay or cancel
 *   GET|POST /_checkout/portal/:id              the portal: switch plan or cycle, cancel to Free
 *
 * Its objects live in the database (schema _checkout, closed to every API role), so a restart of
 * `npm start` keeps the customer's subscription.
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import Stripe from 'stripe';
import type { StackContext } from './context.ts';
import {
  LOCAL_PRICES,
  Store,
  at,
  id,
  money,
  now,
  parseStripeForm,
  priceById,
  safeEqual,
  str,
  strings,
  subscriptionItem,
  type CheckoutSession,
  type Json,
  type PortalSession,
  type Subscription,
} from './checkout-store.ts';
import { escape, page, pageCsp } from './checkout-pages.ts';

function stripeError(c: Context, status: 400 | 401 | 404, message: string, param?: string) {
  return c.json({ error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } }, status);
}

export function checkoutApp(ctx: StackContext): Hono {
  const app = new Hono();
  const store = new Store(ctx.db);
  const signer = new Stripe(ctx.billing.secretKey);

  /** Sends one event to billing-webhook as the provider would, retrying a failed delivery with back-off. */
  const deliver = async (origin: string, type: string, object: Json, previous?: Json): Promise<void> => {
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
    const form = parseStripeForm(await c.req.text());
    const item = at(form.line_items, 0);
    const price = priceById(item?.price);
    if (form.mode !== 'subscription') return stripeError(c, 400, 'Only subscription mode is supported.', 'mode');
    if (!price) return stripeError(c, 400, `No such price: '${String(item?.price ?? '')}'`, 'line_items[0][price]');
    const success = str(form.success_url);
    const cancel = str(form.cancel_url);
    if (!success || !cancel) return stripeError(c, 400, 'success_url and cancel_url are required.');
    const customer = str(form.customer);
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
      customer_email: str(form.customer_email),
      client_reference_id: str(form.client_reference_id),
      subscription: null,
      metadata: strings(form.metadata),
      subscription_metadata: strings((form.subscription_data as Json | undefined)?.metadata),
      amount_total: price.unit_amount,
      currency: 'usd',
      price: price.id,
      success_url: success,
      cancel_url: cancel,
      url: null,
      created: now(),
      expires_at: now() + 24 * 3600,
      livemode: false,
    };
    session.url = `${new URL(c.req.url).origin}/_checkout/pay/${session.id}`;
    await store.put('checkout_session', session.id, session);
    return c.json(session);
  });

  app.get('/v1/subscriptions/:id', async (c) => {
    const subscription = await store.get<Subscription>('subscription', c.req.param('id'));
    return subscription ? c.json(subscription) : stripeError(c, 404, `No such subscription: '${c.req.param('id')}'`);
  });

  app.post('/v1/billing_portal/sessions', async (c) => {
    const form = parseStripeForm(await c.req.text());
    const customer = str(form.customer);
    if (!customer || !(await store.get('customer', customer))) {
      return stripeError(c, 400, `No such customer: '${customer ?? ''}'`, 'customer');
    }
    const flowData = form.flow_data as Json | undefined;
    const confirm = flowData?.subscription_update_confirm as Json | undefined;
    const confirmItem = at(confirm?.items, 0);
    const afterCompletion = flowData?.after_completion as Json | undefined;
    const session: PortalSession = {
      id: id('bps'),
      object: 'billing_portal.session',
      customer,
      return_url: str(form.return_url) ?? ctx.siteUrl,
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

  const openSession = async (sessionId: string) => {
    const session = await store.get<CheckoutSession>('checkout_session', sessionId);
    if (session && session.status === 'open' && session.expires_at < now()) session.status = 'expired';
    return session;
  };

  app.get('/pay/:id', async (c) => {
    const session = await openSession(c.req.param('id'));
    if (!session) return c.html(page('Checkout not found', '<h1>This checkout does not exist.</h1>'), 404);
    const price = priceById(session.price);
    if (session.status !== 'open' || !price) {
      return c.html(
        page(
          'Checkout closed',
          `<h1>This checkout is ${session.status === 'complete' ? 'already paid' : 'no longer open'}.</h1>
<p><a href="${escape(session.status === 'complete' ? session.success_url : session.cancel_url)}">Return to Linkboard</a></p>`,
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
    const { price: _price, subscription_metadata: _metadata, ...visible } = session;
    await deliver(origin, 'checkout.session.completed', visible);
    await deliver(origin, 'customer.subscription.created', subscription);
    return c.redirect(session.success_url, 303);
  });

  const openPortal = async (sessionId: string) => {
    const session = await store.get<PortalSession>('portal_session', sessionId);
    return session && session.expires_at >= now() ? session : null;
  };

  app.get('/portal/:id', async (c) => {
    const session = await openPortal(c.req.param('id'));
    if (!session) return c.html(page('Portal closed', '<h1>This billing portal link has expired.</h1>'), 410);
    const subscription = await store.liveSubscription(session.customer);
    const back = `<p><a href="${escape(session.return_url)}">Return to Linkboard</a></p>`;
    if (!subscription) {
      return c.html(page('Billing', `<h1>Billing</h1><p>You have no active subscription.</p>${back}`));
    }
    const item = subscription.items.data[0] as { price: { id: string }; current_period_end: number };
    const current = priceById(item.price.id);
    const renews = new Date(item.current_period_end * 1000).toUTCString().slice(5, 16);
    const summary = `<div class="box"><h2>Current plan</h2><dl>
<dt>Plan</dt><dd>${escape(current?.label ?? item.price.id)}</dd>
<dt>Price</dt><dd>${current ? `${money(current.unit_amount)} a ${current.interval}` : ''}</dd>
<dt>Renews on</dt><dd>${escape(renews)}</dd></dl></div>`;
    const target = priceById(session.flow?.subscription_update_confirm?.items[0]?.price);
    if (target) {
      return c.html(
        page(
          'Confirm your new plan',
          `<h1>Confirm your new plan</h1>${summary}
<div class="box"><h2>New plan</h2><dl><dt>Plan</dt><dd>${escape(target.label)}</dd>
<dt>Price</dt><dd>${money(target.unit_amount)} a ${target.interval}</dd></dl>
<form method="post"><input type="hidden" name="price" value="${escape(target.id)}"><div class="actions">
<button type="submit" name="action" value="update">Confirm</button></div></form></div>${back}`,
        ),
      );
    }
    const options = LOCAL_PRICES.map(
      (price) =>
        `<label><input type="radio" name="price" value="${escape(price.id)}"${price.id === current?.id ? ' checked' : ''}> ${escape(price.label)}: ${money(price.unit_amount)} a ${price.interval}</label>`,
    ).join('\n');
    return c.html(
      page(
        'Manage your plan',
        `<h1>Manage your plan</h1>${summary}
<form method="post" class="box"><fieldset><legend><h2>Change plan or billing cycle</h2></legend>${options}</fieldset>
<div class="actions"><button type="submit" name="action" value="update">Update plan</button></div></form>
<form method="post" class="box"><h2>Cancel subscription</h2><p>Your plan goes back to Free now. Everything you saved stays readable.</p>
<div class="actions"><button type="submit" name="action" value="cancel" class="danger">Cancel subscription</button></div></form>
${back}`,
      ),
    );
  });

  app.post('/portal/:id', async (c) => {
    const session = await openPortal(c.req.param('id'));
    if (!session) return c.redirect(c.req.url, 303);
    const subscription = await store.liveSubscription(session.customer);
    if (!subscription) return c.redirect(session.return_url, 303);
    const origin = new URL(c.req.url).origin;
    const form = await c.req.parseBody();
    if (form.action === 'cancel') {
      Object.assign(subscription, { status: 'canceled', canceled_at: now(), ended_at: now() });
      await store.put('subscription', subscription.id, subscription);
      await deliver(origin, 'customer.subscription.deleted', subscription);
      return c.redirect(session.return_url, 303);
    }
    const price = priceById(form.price);
    const item = subscription.items.data[0] as { price: { id: string } } | undefined;
    if (form.action !== 'update' || !price || !item) return c.redirect(c.req.url, 303);
    if (item.price.id !== price.id) {
      const previous = { items: subscription.items };
      subscription.items = { object: 'list', data: [{ ...subscriptionItem(price, now()), id: (item as Json).id }] };
      await store.put('subscription', subscription.id, subscription);
      await deliver(origin, 'customer.subscription.updated', subscription, previous);
    }
    const after = session.flow?.after_completion?.redirect?.return_url;
    return c.redirect(after || session.return_url, 303);
  });

  return app;
}

/** The test provider's keys for one run: made at random, never written anywhere. */
export function testBillingKeys(): { secretKey: string; webhookSecret: string } {
  return {
    secretKey: `sk_test_local_${randomBytes(24).toString('base64url')}`,
    webhookSecret: `whsec_${randomBytes(24).toString('base64url')}`,
  };
}
