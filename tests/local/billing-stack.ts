/**
 * The billing tests' stack: the real local stack in-process with the test-mode card provider,
 * users signed up through the real supabase-js client, and the calls a browser makes (the
 * functions, the provider's pages as forms) plus what the tests read back from the database.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { serverClient } from '../../supabase/functions/_shared/client.ts';
import { createStack } from '../../supabase/local/app.ts';
import type { Db } from '../../supabase/local/db.ts';
import { TEST_ANON_KEY, TEST_JWT_SECRET } from '../support/test-keys.ts';

export const BASE = 'http://127.0.0.1:54321';

export interface BillingUser {
  id: string;
  email: string;
  username: string;
  token: string;
  client: SupabaseClient;
}

export function billingStack(db: Db) {
  const billing = {
    mode: 'test' as const,
    secretKey: `sk_test_local_${randomUUID()}`,
    webhookSecret: `whsec_${randomUUID()}`,
  };
  const app = createStack({ db, jwtSecret: TEST_JWT_SECRET, billing });
  const call: typeof fetch = async (input, init) => app.fetch(new Request(input, init));
  let counter = 0;

  async function signUp(): Promise<BillingUser> {
    const client = serverClient(BASE, TEST_ANON_KEY, call);
    const email = `billing-${Date.now().toString(36)}-${counter++}@example.com`;
    const { data, error } = await client.auth.signUp({ email, password: 'password-123' });
    if (error || !data.session || !data.user) throw new Error(`sign-up failed: ${error?.message}`);
    const username = `buyer_${Date.now().toString(36)}${counter}`;
    await db.query('update public.user_profiles set username = $2 where id = $1', [data.user.id, username]);
    return { id: data.user.id, email, username, token: data.session.access_token, client };
  }

  const post = (path: string, body: unknown, token?: string) =>
    call(`${BASE}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const form = (url: string, fields: Record<string, string>) =>
    call(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
  const tierOf = async (id: string) =>
    (await db.query<{ t: string }>('select subscription_tier as t from public.user_profiles where id = $1', [id]))
      .rows[0]?.t;
  const mailTo = async (email: string) =>
    (
      await db.query<{ subject: string; body: string }>(
        "select subject, body from public.outgoing_mail where to_address = $1 and subject not like 'Confirm%' order by created_at, id",
        [email],
      )
    ).rows;
  const customerOf = async (id: string) =>
    (
      await db.query<{
        customer: string | null;
        subscription: string | null;
        plan: string | null;
        cycle: string | null;
      }>(
        `select provider_customer_id as customer, subscription_id as subscription, plan, billing_cycle as cycle
         from public.billing_customers where user_id = $1`,
        [id],
      )
    ).rows[0];

  async function checkout(user: BillingUser, plan: string, billingCycle: string): Promise<string> {
    const response = await post('/api/create-checkout', { plan, billingCycle }, user.token);
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    return url;
  }
  async function pay(url: string): Promise<Response> {
    const response = await form(url, { action: 'pay' });
    expect(response.status).toBe(303);
    return response;
  }
  /** The billing portal's page for the user, as the Profile's 'Manage or Downgrade Plan' opens it. */
  async function portal(user: BillingUser, returnUrl = `${BASE}/Profile/${user.username}`): Promise<string> {
    const response = await post('/api/billing-portal', { email: user.email, returnUrl }, user.token);
    expect(response.status).toBe(200);
    return ((await response.json()) as { url: string }).url;
  }

  return { billing, call, signUp, post, form, tierOf, mailTo, customerOf, checkout, pay, portal };
}
