import { Link } from 'react-router-dom';
import type { Usage } from '../../domain/dashboard.ts';
import { screenPath } from './screen-path.ts';

/**
 * The upgrade banner (docs/product.md, Dashboard; Plans and limits): Free users above 70 % of a limit; it names the usages near
 * their limit, leads to Upgrade, and can be dismissed for the session.
 */
export function UpgradeBanner({
  usages,
  username,
  onDismiss,
}: {
  usages: readonly Usage[];
  username: string | null;
  onDismiss(): void;
}) {
  return (
    <section
      aria-label="Upgrade"
      className="border-brand-100 dark:border-brand-900 bg-brand-50 dark:bg-brand-950/40 flex flex-wrap items-center gap-4 rounded-2xl border px-4 py-3"
    >
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-slate-900">Upgrade to Pro for unlimited links and advanced features</p>
        <p className="mt-0.5 text-sm text-slate-700">{usages.map((usage) => usage.text).join(' · ')}</p>
      </div>
      <Link
        to={screenPath('Upgrade', username)}
        className="bg-brand-600 hover:bg-brand-700 rounded-lg px-4 py-2 text-sm font-medium text-white"
      >
        Upgrade to Pro
      </Link>
      <button
        type="button"
        aria-label="Dismiss"
        onClick={onDismiss}
        className="rounded-lg px-2 py-1 text-slate-600 hover:bg-surface"
      >
        <span aria-hidden="true">×</span>
      </button>
    </section>
  );
}
