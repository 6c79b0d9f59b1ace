/**
 * The test-mode provider's billing portal page (/_checkout/portal/:id), as Stripe's portal behaves
 * by default: switch plan or cycle (prorated at once), cancel at the end of the period paid for
 * (the plan stays until then), or renew a plan set to cancel. Each change sends the provider's event.
 */
import type { Hono } from 'hono';
import type { Deliver } from './checkout-deliver.ts';
import { escape, page } from './checkout-pages.ts';
import {
  LOCAL_PRICES,
  money,
  now,
  priceById,
  subscriptionItem,
  type Json,
  type PortalSession,
  type Store,
} from './checkout-store.ts';
import { itemOf, setCancelAtPeriodEnd } from './checkout-subscriptions.ts';

const day = (epochSeconds: number) => new Date(epochSeconds * 1000).toUTCString().slice(5, 16);

export function portalRoutes(app: Hono, store: Store, deliver: Deliver): void {
  const openPortal = async (sessionId: string) => {
    const session = await store.get<PortalSession>('portal_session', sessionId);
    return session && session.expires_at >= now() ? session : null;
  };

  app.get('/portal/:id', async (c) => {
    const session = await openPortal(c.req.param('id'));
    if (!session) return c.html(page('Portal closed', '<h1>This billing portal link has expired.</h1>'), 410);
    const subscription = await store.liveSubscription(session.customer);
    const back = `<p><a href="${escape(session.return_url)}">Return to Linkboard</a></p>`;
    const item = subscription && itemOf(subscription);
    if (!subscription || !item) {
      return c.html(page('Billing', `<h1>Billing</h1><p>You have no active subscription.</p>${back}`));
    }
    const current = priceById(item.price.id);
    const ends = day(item.current_period_end);
    const summary = `<div class="box"><h2>Current plan</h2><dl>
<dt>Plan</dt><dd>${escape(current?.label ?? item.price.id)}</dd>
<dt>Price</dt><dd>${current ? `${money(current.unit_amount)} a ${current.interval}` : ''}</dd>
<dt>${subscription.cancel_at_period_end ? 'Ends on' : 'Renews on'}</dt><dd>${escape(ends)}</dd></dl></div>`;
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
    const ending = subscription.cancel_at_period_end
      ? `<form method="post" class="box"><h2>Your plan ends on ${escape(ends)}</h2><p>It is cancelled and will not renew.</p>
<div class="actions"><button type="submit" name="action" value="renew">Renew plan</button></div></form>`
      : `<form method="post" class="box"><h2>Cancel subscription</h2><p>Your plan stays until the end of the period you paid for (${escape(ends)}), then goes back to Free. Everything you saved stays readable.</p>
<div class="actions"><button type="submit" name="action" value="cancel" class="danger">Cancel subscription</button></div></form>`;
    return c.html(
      page(
        'Manage your plan',
        `<h1>Manage your plan</h1>${summary}
<form method="post" class="box"><fieldset><legend><h2>Change plan or billing cycle</h2></legend>${options}</fieldset>
<div class="actions"><button type="submit" name="action" value="update">Update plan</button></div></form>
${ending}
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
    if (form.action === 'cancel' || form.action === 'renew') {
      await setCancelAtPeriodEnd(store, deliver, origin, subscription, form.action === 'cancel');
      return c.redirect(session.return_url, 303);
    }
    const price = priceById(form.price);
    const item = itemOf(subscription);
    if (form.action !== 'update' || !price || !item) return c.redirect(c.req.url, 303);
    if (item.price.id !== price.id) {
      const previous: Json = { items: subscription.items };
      subscription.items = { object: 'list', data: [{ ...subscriptionItem(price, now()), id: item.id }] };
      await store.put('subscription', subscription.id, subscription);
      await deliver(origin, 'customer.subscription.updated', subscription, previous);
    }
    const after = session.flow?.after_completion?.redirect?.return_url;
    return c.redirect(after || session.return_url, 303);
  });
}
