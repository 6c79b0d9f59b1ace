import { Link } from 'react-router-dom';

/** A plan limit already reached: the message of docs/product.md, and where to upgrade. */
export interface PlanLimit {
  /** The product's wording (docs/product.md), e.g. 'Upgrade to Pro to create more directories.' */
  message: string;
  /** The Upgrade page's path. */
  upgradeTo: string;
  /** What is still allowed, if anything (e.g. tasks at the events limit). */
  note?: string;
}

/** The Upgrade page of the user (the bare path when the username is not known yet). */
export function upgradePath(username: string | null | undefined): string {
  return username ? `/Upgrade/${username}` : '/Upgrade';
}

/** The 'Upgrade to Pro' link's look, without its padding. */
export const upgradeLinkClass =
  'inline-flex items-center justify-center rounded-lg bg-brand-600 text-sm font-medium text-white hover:bg-brand-700';

/** The limit said before anything is filled in, with an 'Upgrade to Pro' link to the Upgrade page. */
export function LimitNotice({ limit, id }: { limit: PlanLimit; id?: string }) {
  return (
    <div
      id={id}
      role="status"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 dark:border-amber-700 bg-amber-50 dark:bg-amber-950/40 px-4 py-3 text-sm text-amber-900 dark:text-amber-100"
    >
      <div>
        <p className="font-medium">{limit.message}</p>
        {limit.note && <p>{limit.note}</p>}
      </div>
      <Link to={limit.upgradeTo} className={`${upgradeLinkClass} px-3 py-1.5`}>
        Upgrade to Pro
      </Link>
    </div>
  );
}
