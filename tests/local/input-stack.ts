/**
 * The bad-input tests' stack (function-inputs, route-inputs): the billing stack with a signed-up
 * user, another user's paid plan (so the test-mode provider holds a subscription), and what
 * any refused call could leave behind, to compare before and after.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { freshDb, type DbKind } from '../support/db.ts';
import { billingStack, type BillingUser } from './billing-stack.ts';

export interface InputStack {
  db: Db;
  stack: ReturnType<typeof billingStack>;
  user: BillingUser;
  /** Accounts, queued mail, the provider's objects, customers, and the user's tier and address. */
  stored(): Promise<Record<string, string> | undefined>;
}

export async function inputStack(kind: DbKind): Promise<InputStack> {
  const db = await freshDb(kind);
  const stack = billingStack(db);
  const user = await stack.signUp();
  // Another user pays for a plan: the provider then holds a customer and a subscription.
  await stack.pay(await stack.checkout(await stack.signUp(), 'pro', 'monthly'));
  const stored = async () =>
    (
      await db.query<Record<string, string>>(
        `select (select count(*) from auth.users)::text as users,
                (select count(*) from public.outgoing_mail)::text as mail,
                (select count(*) from _checkout.objects)::text as objects,
                (select count(*) from public.billing_customers)::text as customers,
                (select subscription_tier from public.user_profiles where id = $1) as tier,
                (select coalesce(email_change, email) from auth.users where id = $1) as email`,
        [user.id],
      )
    ).rows[0];
  return { db, stack, user, stored };
}

/** The stack for a describe block: made before its tests, closed after; its fields are set by then. */
export function inputStackFor(kind: DbKind): InputStack {
  const holder = {} as InputStack;
  beforeAll(async () => {
    Object.assign(holder, await inputStack(kind));
  });
  afterAll(() => holder.db.close());
  return holder;
}
