/**
 * What the import dialog offers when the Free plan's limits leave links or events out: the limit's
 * sentence ('Upgrade to Pro to save more links.') and the way to the upgrade, rather than an Import
 * button that cannot do anything.
 */
import { Link } from 'react-router-dom';

export function ImportUpsell({ message, onNavigate }: { message: string; onNavigate(): void }) {
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-200 dark:border-amber-800 bg-amber-50 dark:bg-amber-950/40 p-3">
      <p className="text-sm font-medium text-amber-900 dark:text-amber-100">{message}</p>
      <Link
        to="/Upgrade"
        onClick={onNavigate}
        className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
      >
        Upgrade to Pro
      </Link>
    </div>
  );
}
