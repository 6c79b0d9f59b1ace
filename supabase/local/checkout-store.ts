/**
 * The test-mode card provider's data: the prices it sells, the shapes of its objects, the small
 * helpers its routes share, and the store that keeps the objects in the database (schema _checkout).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { LOCAL_PRICE_IDS, type PriceKey } from '../functions/_shared/billing.ts';
import type { Sql } from './db.ts';

interface Price {
  id: string;
  key: PriceKey;
  label: string;
  unit_amount: number;
  interval: 'month' | 'year';
}

/** The plans' prices (docs/product.md, Plans), as the test provider sells them. */
export const LOCAL_PRICES: Price[] = [
  {
    id: LOCAL_PRICE_IDS.pro_monthly,
    key: 'pro_monthly',
    label: 'Pro, billed monthly',
    unit_amount: 499,
    interval: 'month',
  },
  {
    id: LOCAL_PRICE_IDS.pro_yearly,
    key: 'pro_yearly',
    label: 'Pro, billed yearly',
    unit_amount: 5000,
    interval: 'year',
  },
  {
    id: LOCAL_PRICE_IDS.team_monthly,
    key: 'team_monthly',
    label: 'Team, billed monthly (per user)',
    unit_amount: 999,
    interval: 'month',
  },
  {
    id: LOCAL_PRICE_IDS.team_yearly,
    key: 'team_yearly',
    label: 'Team, billed yearly (per user)',
    unit_amount: 10000,
    interval: 'year',
  },
];

export type Json = Record<string, unknown>;

export interface CheckoutSession extends Json {
  id: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  subscription: string | null;
  metadata: Record<string, string>;
  amount_total: number;
  currency: string;
  success_url: string;
  cancel_url: string;
  url: string | null;
  expires_at: number;
  price: string;
  subscription_metadata: Record<string, string>;
}

export interface Subscription extends Json {
  id: string;
  customer: string;
  status: 'active' | 'canceled';
  /** Cancelled in the portal: it stays active and ends when its period does. */
  cancel_at_period_end: boolean;
  canceled_at?: number | null;
  metadata: Record<string, string>;
  items: { object: 'list'; data: Json[] };
}

export interface PortalSession extends Json {
  id: string;
  customer: string;
  return_url: string;
  url: string;
  expires_at: number;
  flow: {
    type: string;
    subscription_update_confirm?: { subscription: string; items: { id: string; price: string }[] };
    after_completion?: { type: string; redirect?: { return_url: string } };
  } | null;
}

export const id = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;
export const now = () => Math.floor(Date.now() / 1000);
export const priceById = (price: unknown) => LOCAL_PRICES.find((p) => p.id === price);
export const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects and arrays. */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Json = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Json;
    });
  }
  return root;
}

/** The n-th entry of a parsed form list (`items[0]`), which parseStripeForm keeps as an object. */
export const at = (list: unknown, index: number): Json | undefined =>
  typeof list === 'object' && list !== null ? ((list as Json)[String(index)] as Json | undefined) : undefined;

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export class Store {
  private ready: Promise<void> | undefined;
  constructor(private readonly db: Sql) {}

  private init(): Promise<void> {
    return (this.ready ??= (async () => {
      for (const statement of [
        'create schema if not exists _checkout',
        'revoke all on schema _checkout from public',
        `create table if not exists _checkout.objects (
           id text primary key, kind text not null, data jsonb not null, created_at timestamptz not null default now())`,
        "create index if not exists objects_customer_idx on _checkout.objects ((data ->> 'customer'), kind)",
      ])
        await this.db.query(statement);
    })().catch((error: unknown) => {
      this.ready = undefined; // the next request tries again
      throw error;
    }));
  }

  async get<T extends Json>(kind: string, key: string): Promise<T | null> {
    await this.init();
    const { rows } = await this.db.query<{ data: T }>(
      'select data from _checkout.objects where id = $1 and kind = $2',
      [key, kind],
    );
    return rows[0]?.data ?? null;
  }

  async put(kind: string, key: string, data: Json): Promise<void> {
    await this.init();
    await this.db.query(
      `insert into _checkout.objects (id, kind, data) values ($1, $2, $3::jsonb)
       on conflict (id) do update set data = excluded.data`,
      [key, kind, JSON.stringify(data)],
    );
  }

  async liveSubscription(customer: string): Promise<Subscription | null> {
    await this.init();
    const { rows } = await this.db.query<{ data: Subscription }>(
      `select data from _checkout.objects
       where kind = 'subscription' and data ->> 'customer' = $1 and data ->> 'status' = 'active'
       order by created_at desc limit 1`,
      [customer],
    );
    return rows[0]?.data ?? null;
  }

  /** The active subscriptions made for a user (their metadata's user_id, set by create-checkout). */
  async liveSubscriptionsOfUser(userId: string): Promise<Subscription[]> {
    await this.init();
    const { rows } = await this.db.query<{ data: Subscription }>(
      `select data from _checkout.objects
       where kind = 'subscription' and data -> 'metadata' ->> 'user_id' = $1 and data ->> 'status' = 'active'
       order by created_at`,
      [userId],
    );
    return rows.map((row) => row.data);
  }
}

export function subscriptionItem(price: Price, start: number): Json {
  const end = new Date(start * 1000);
  if (price.interval === 'month') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  return {
    id: id('si'),
    object: 'subscription_item',
    quantity: 1,
    current_period_start: start,
    current_period_end: Math.floor(end.getTime() / 1000),
    price: {
      id: price.id,
      object: 'price',
      currency: 'usd',
      unit_amount: price.unit_amount,
      recurring: { interval: price.interval, interval_count: 1 },
      type: 'recurring',
    },
  };
}
