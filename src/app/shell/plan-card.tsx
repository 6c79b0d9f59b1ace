import { Link } from 'react-router-dom';
import { planCard, tierOf } from '../../domain/plans.ts';

export function PlanCard({ tier, username }: { tier: string | null | undefined; username: string | null }) {
  const card = planCard(tierOf(tier));
  return (
    <section aria-label="Your plan" className="bg-brand-50 dark:bg-brand-950/40 rounded-xl p-3 text-sm">
      <p className="text-brand-700 dark:text-brand-300 font-semibold">{card.title}</p>
      <p className="mt-1 text-slate-700">{card.text}</p>
      {card.action && (
        <Link
          to={username ? `/Upgrade/${username}` : '/Upgrade'}
          className="bg-brand-600 hover:bg-brand-700 mt-3 block rounded-lg px-3 py-2 text-center font-medium text-white"
        >
          {card.action}
        </Link>
      )}
    </section>
  );
}
