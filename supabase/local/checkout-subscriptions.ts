/**
 * What the test-mode provider does to a subscription, as Stripe does: cancel at the period's end
 * (it stays active, `cancel_at_period_end` set, `customer.subscription.updated`), resume (the flag
 * cleared, `updated` again), and the end of a period (a test clock reaching it): a subscription set
 * to cancel ends (`canceled`, `customer.subscription.deleted`), any other renews for one more
 * period (`updated`).
 */
import type { Deliver } from './checkout-deliver.ts';
import { now, priceById, subscriptionItem, type Json, type Store, type Subscription } from './checkout-store.ts';

type Item = { id: string; price: { id: string }; current_period_end: number };

export const itemOf = (subscription: Subscription) => subscription.items.data[0] as Item | undefined;

export async function setCancelAtPeriodEnd(
  store: Store,
  deliver: Deliver,
  origin: string,
  subscription: Subscription,
  cancel: boolean,
): Promise<Subscription> {
  if (subscription.status !== 'active' || subscription.cancel_at_period_end === cancel) return subscription;
  const previous = { cancel_at_period_end: subscription.cancel_at_period_end, canceled_at: subscription.canceled_at };
  Object.assign(subscription, { cancel_at_period_end: cancel, canceled_at: cancel ? now() : null });
  await store.put('subscription', subscription.id, subscription);
  await deliver(origin, 'customer.subscription.updated', subscription, previous);
  return subscription;
}

/** The test clock reaching the end of the subscription's current period. */
export async function endPeriod(
  store: Store,
  deliver: Deliver,
  origin: string,
  subscription: Subscription,
): Promise<Subscription> {
  const item = itemOf(subscription);
  if (subscription.status !== 'active' || !item) return subscription;
  if (subscription.cancel_at_period_end) {
    Object.assign(subscription, { status: 'canceled', ended_at: item.current_period_end });
    await store.put('subscription', subscription.id, subscription);
    await deliver(origin, 'customer.subscription.deleted', subscription);
    return subscription;
  }
  const price = priceById(item.price.id);
  if (!price) return subscription;
  const previous: Json = { items: subscription.items };
  subscription.items = { object: 'list', data: [{ ...subscriptionItem(price, item.current_period_end), id: item.id }] };
  await store.put('subscription', subscription.id, subscription);
  await deliver(origin, 'customer.subscription.updated', subscription, previous);
  return subscription;
}
