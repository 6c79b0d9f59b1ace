import { useState } from 'react';
import { openBillingPortal, startCheckout, useBillingCall } from '../../backend/billing.ts';
import { useOnline } from '../../ui/use-online.ts';
import { useCurrentUser } from '../../backend/current-user-store.ts';
import { useUserSettings } from '../../data/queries/profile.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import type { BillingCycle } from '../../domain/plan-catalog.ts';
import { planCard, type Tier } from '../../domain/plans.ts';
import { usePageTitle } from '../../ui/page-title.ts';
import { PAGES } from '../../domain/pages.ts';
import { ScreenHeader } from '../../ui/screen-header.tsx';
import { BillingCycleToggle } from './billing-cycle-toggle.tsx';
import { rememberCheckout } from './checkout-memory.ts';
import { CheckoutNotice, useCheckoutReturn } from './checkout-return.tsx';
import type { CardAction } from './plan-actions.ts';
import { PlanCards } from './plan-cards.tsx';
import { PlanComparison } from './plan-comparison.tsx';
import { RoadmapNote, UpgradeFaq } from './upgrade-faq.tsx';

export const CHECKOUT_OFFLINE =
  'Checkout needs a connection. You can compare plans now and upgrade when you are back online.';

/** Plans, prices and checkout (docs/product.md, Upgrade), at /Upgrade and /Upgrade/{username}. */
export function UpgradePage() {
  usePageTitle(PAGES.upgrade.title);
  const { db } = useUserDb();
  const user = useCurrentUser((state) => state.user);
  const { profile, tier } = useUserSettings(db, user);
  // Opens on the cycle the user is billed (synced with the profile row), until they choose one.
  const [chosen, setCycle] = useState<BillingCycle | null>(null);
  const cycle = chosen ?? (tier !== 'free' ? profile?.billing_cycle : null) ?? 'monthly';
  const online = useOnline();
  const billing = useBillingCall<Tier>();
  const checkoutReturn = useCheckoutReturn();

  const act = (action: CardAction, card: Tier) => {
    if (action.kind === 'checkout') {
      billing.run(
        card,
        () => startCheckout(action.plan, cycle),
        () => rememberCheckout(action.plan, cycle),
      );
    } else if (action.kind === 'portal') {
      const email = profile?.email ?? user?.email ?? '';
      const username = profile?.username ?? user?.username;
      const returnUrl = `${location.origin}/Upgrade${username ? `/${username}` : ''}`;
      billing.run(card, () => openBillingPortal(email, returnUrl));
    }
  };

  return (
    <>
      <ScreenHeader title="Upgrade" subtitle={`You are on the ${planCard(tier).title}. Compare the plans below.`} />
      <CheckoutNotice
        ret={checkoutReturn}
        tier={tier}
        cycle={profile?.billing_cycle ?? null}
        loaded={profile !== undefined}
      />
      {!online && (
        <p
          role="status"
          className="mb-6 rounded-xl border border-amber-300 dark:border-amber-700 bg-amber-50 dark:bg-amber-950/40 px-4 py-3 text-sm text-amber-900 dark:text-amber-100"
        >
          {CHECKOUT_OFFLINE}
        </p>
      )}
      <section aria-labelledby="plans">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
          <h2 id="plans" className="text-lg font-semibold text-slate-900">
            Plans
          </h2>
          <BillingCycleToggle value={cycle} onChange={setCycle} />
        </div>
        {billing.error && (
          <p
            role="alert"
            className="mb-6 rounded-xl border border-red-300 dark:border-red-700 bg-red-50 dark:bg-red-950/40 px-4 py-3 text-sm text-red-800 dark:text-red-200"
          >
            {billing.error}
          </p>
        )}
        <PlanCards current={tier} cycle={cycle} busy={billing.busy} online={online} onAction={act} />
      </section>
      <section aria-labelledby="compare" className="mt-10">
        <h2 id="compare" className="mb-4 text-lg font-semibold text-slate-900">
          Compare the plans
        </h2>
        <PlanComparison current={tier} />
      </section>
      <RoadmapNote />
      <UpgradeFaq />
    </>
  );
}
