import { planCatalog, type BillingCycle, type PlanOffer } from '../../domain/plan-catalog.ts';
import type { Tier } from '../../domain/plans.ts';
import { Button } from '../../ui/button.tsx';
import { cardAction, type CardAction } from './plan-actions.ts';

export interface PlanCardsProps {
  current: Tier;
  cycle: BillingCycle;
  /** The card whose action is in flight (its button says so); every action waits while one runs. */
  busy: Tier | null;
  /** False offline: checkout and the portal need the provider. */
  online: boolean;
  onAction: (action: CardAction, card: Tier) => void;
}

function busyLabel(action: CardAction): string {
  return action.kind === 'portal' ? 'Opening billing portal...' : 'Starting checkout...';
}

function PlanCard({ plan, props }: { plan: PlanOffer; props: PlanCardsProps }) {
  const { current, cycle, busy, online, onAction } = props;
  const action = cardAction(current, plan.tier);
  const price = plan.price[cycle];
  const isCurrent = action.kind === 'current';
  const headingId = `plan-${plan.tier}`;
  const inFlight = busy === plan.tier;

  return (
    <article
      aria-labelledby={headingId}
      className={`flex flex-col rounded-2xl bg-surface p-6 shadow-sm ${isCurrent ? 'ring-2 ring-brand-600' : 'ring-1 ring-slate-200'}`}
    >
      <div className="flex items-start justify-between gap-3">
        <h3 id={headingId} className="text-xl font-semibold text-slate-900">
          {plan.name}
        </h3>
        {isCurrent && (
          <span className="rounded-full bg-brand-50 dark:bg-brand-950/40 px-3 py-1 text-xs font-semibold text-brand-700 dark:text-brand-300">
            Current plan
          </span>
        )}
      </div>
      <p className="mt-4 text-slate-900">
        <span className="text-3xl font-bold">{price.amount}</span>
        {price.per && <span className="text-sm text-slate-700"> {price.per}</span>}
      </p>
      {cycle === 'yearly' && plan.saving && (
        <p className="mt-2 inline-block self-start rounded-full bg-emerald-50 dark:bg-emerald-950/40 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:text-emerald-200">
          {plan.saving}
        </p>
      )}
      <p className="mt-3 text-sm text-slate-700">{plan.summary}</p>
      <ul className="mt-4 flex-1 list-disc space-y-1 pl-5 text-sm text-slate-800">
        {plan.rights.map((right) => (
          <li key={right}>{right}</li>
        ))}
      </ul>
      <Button
        className="mt-6 w-full"
        variant={action.kind === 'checkout' ? 'primary' : 'secondary'}
        disabled={isCurrent || !online || busy !== null}
        aria-busy={inFlight || undefined}
        aria-describedby={action.kind === 'portal' ? headingId : undefined}
        onClick={() => onAction(action, plan.tier)}
      >
        {inFlight ? busyLabel(action) : action.label}
      </Button>
    </article>
  );
}

/** Free, Pro and Team side by side on desktop, one column on phones (docs/product.md, Upgrade). */
export function PlanCards(props: PlanCardsProps) {
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {planCatalog.map((plan) => (
        <PlanCard key={plan.tier} plan={plan} props={props} />
      ))}
    </div>
  );
}
