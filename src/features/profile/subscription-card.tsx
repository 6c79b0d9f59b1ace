/**
 * The Profile's Subscription card (docs/product.md, Profile): the plan, when a paid period renews or ends, and
 * the plan's actions. Upgrades go to the Upgrade screen, 'Manage or Downgrade Plan' to the
 * provider's portal. A paid plan cancelled there runs to the end of the period paid for: the card
 * says when it ends and offers 'Resume' until then. Everything shown comes with the synced profile
 * row, which only the billing webhook writes.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { openBillingPortal, resumeSubscription, useBillingCall } from '../../backend/billing.ts';
import type { UserProfileRow } from '../../data/rows.ts';
import { formatter } from '../../domain/date-format.ts';
import { safeTimeZone } from '../../domain/event-times.ts';
import { planCard, type Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { useOnline } from '../../ui/use-online.ts';

/** docs/product.md, Profile: opens the billing portal (change, downgrade or cancel). */
export const MANAGE_PLAN = 'Manage or Downgrade Plan';
export const PORTAL_OFFLINE = 'Managing your plan needs a connection.';
export const RESUME = 'Resume';

const linkClass = 'inline-flex rounded-lg px-4 py-2 text-sm font-medium';

/** The plan's actions on the Subscription card (docs/product.md, Profile). */
export function subscriptionActions(tier: Tier): string[] {
  if (tier === 'free') return ['Upgrade to Pro'];
  if (tier === 'pro') return ['Upgrade to Team', MANAGE_PLAN];
  return [MANAGE_PLAN];
}

type Billing = Pick<UserProfileRow, 'plan_period_end' | 'plan_cancel_at_period_end'>;

/** 'Your Pro plan ends on 26 November 2027.' or '... renews on ...'; null on Free or without a date. */
export function periodLine(tier: Tier, billing: Billing | null, timeZone: string): string | null {
  const end = Date.parse(billing?.plan_period_end ?? '');
  if (tier === 'free' || Number.isNaN(end)) return null;
  const day = formatter({ day: 'numeric', month: 'long', year: 'numeric', timeZone: safeTimeZone(timeZone) });
  const plan = tier === 'pro' ? 'Pro' : 'Team';
  const verb = billing?.plan_cancel_at_period_end ? 'ends' : 'renews';
  return `Your ${plan} plan ${verb} on ${day.format(end)}.`;
}

export interface SubscriptionCardProps {
  tier: Tier;
  username: string;
  email: string;
  /** The synced profile row's billing fields; null before it is local. */
  billing: Billing | null;
  timeZone: string;
}

export function SubscriptionCard({ tier, username, email, billing, timeZone }: SubscriptionCardProps) {
  const online = useOnline();
  const portal = useBillingCall<'portal'>();
  const [resuming, setResuming] = useState(false);
  const [resumeError, setResumeError] = useState<string | null>(null);
  const upgradePath = username ? `/Upgrade/${username}` : '/Upgrade';
  const returnUrl = `${location.origin}/Profile${username ? `/${username}` : ''}`;
  const actions = subscriptionActions(tier);
  const line = periodLine(tier, billing, timeZone);
  const ending = tier !== 'free' && billing?.plan_cancel_at_period_end === true;

  const resume = async () => {
    setResuming(true);
    setResumeError(null);
    const result = await resumeSubscription();
    // Done, the button stays busy until the provider's event brings the renewing row (it then goes).
    if (result.ok) return;
    setResuming(false);
    setResumeError(result.error);
  };

  return (
    <>
      <p className="mt-2 text-sm">{planCard(tier).title}</p>
      {line && <p className="mt-1 text-sm text-slate-700">{line}</p>}
      <div className="mt-4 flex flex-wrap gap-3">
        {ending && (
          <Button disabled={!online || resuming} aria-busy={resuming || undefined} onClick={() => void resume()}>
            {resuming ? 'Resuming...' : RESUME}
          </Button>
        )}
        {actions.map((label) =>
          label === MANAGE_PLAN ? (
            <Button
              key={label}
              variant="secondary"
              disabled={!online || portal.busy !== null}
              aria-busy={portal.busy !== null || undefined}
              onClick={() => portal.run('portal', () => openBillingPortal(email, returnUrl))}
            >
              {portal.busy ? 'Opening billing portal...' : label}
            </Button>
          ) : (
            <Link key={label} to={upgradePath} className={`${linkClass} bg-brand-600 hover:bg-brand-700 text-white`}>
              {label}
            </Link>
          ),
        )}
      </div>
      {!online && actions.includes(MANAGE_PLAN) && <p className="mt-3 text-sm text-slate-700">{PORTAL_OFFLINE}</p>}
      {(portal.error ?? resumeError) && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {portal.error ?? resumeError}
        </p>
      )}
    </>
  );
}
