import { Link } from 'react-router-dom';
import { CalendarIcon, ClockIcon, LinkIcon } from '../../ui/icons.tsx';
import { screenPath } from './screen-path.ts';

const links = [
  { label: 'All Links', page: 'Links', icon: LinkIcon },
  { label: 'Calendar', page: 'Calendar', icon: CalendarIcon },
  { label: 'Upcoming', page: 'Upcoming', icon: ClockIcon },
] as const;

/** Quick Access (docs/product.md, Dashboard): links to the screens. */
export function QuickAccess({ username }: { username: string | null }) {
  return (
    <nav aria-labelledby="quick-access" className="rounded-2xl border border-slate-200 bg-surface p-4">
      <h2 id="quick-access" className="mb-2 text-base font-semibold text-slate-900">
        Quick Access
      </h2>
      <ul className="space-y-1">
        {links.map(({ label, page, icon: Icon }) => (
          <li key={page}>
            <Link
              to={screenPath(page, username)}
              className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
            >
              <Icon aria-hidden="true" />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
