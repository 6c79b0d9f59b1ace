/**
 * The 'Broken links' filter of My Links (docs/product.md, Broken links): for Pro and Team, the links
 * the weekly check found gone, across directories, each with its directory and a way to fix it
 * (editing the URL clears the mark, as a page that answers again does).
 */
import { Link } from 'react-router-dom';
import { useBrokenLinks } from '../../data/queries/broken-links.ts';
import type { DirectoryRow } from '../../data/rows.ts';
import { useUserDb } from '../../data/user-db-context.ts';
import { directoryPath } from './link-filters.ts';

export function BrokenLinkMark({ brokenAt }: { brokenAt: string | null | undefined }) {
  if (!brokenAt) return null;
  return (
    <span
      className="ml-2 shrink-0 rounded bg-red-50 dark:bg-red-950/40 px-1.5 text-xs font-medium text-red-700 dark:text-red-300"
      title="The page could not be found at its last check"
    >
      Broken link
    </span>
  );
}

export function BrokenLinksList({
  directories,
  username,
}: {
  directories: readonly DirectoryRow[] | undefined;
  username: string;
}) {
  const { db } = useUserDb();
  const links = useBrokenLinks(db, true);
  if (links === undefined) return null;
  if (links.length === 0)
    return <p className="text-sm text-slate-600">No broken links. Every link answered at its last check.</p>;
  const names = new Map((directories ?? []).map((directory) => [directory.id, directory.name]));
  return (
    <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-surface" aria-label="Broken links">
      {links.map((link) => (
        <li key={link.id} className="flex items-center gap-3 px-4 py-3" data-testid="broken-link">
          <div className="min-w-0 flex-1">
            <a
              href={link.url}
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-slate-900 hover:underline"
            >
              {link.title}
            </a>
            <BrokenLinkMark brokenAt={link.broken_at} />
            <p className="truncate text-xs text-slate-600">{link.url}</p>
          </div>
          <Link
            className="shrink-0 text-sm text-brand-700 dark:text-brand-300 hover:underline"
            to={directoryPath(username, link.directory_id)}
          >
            {names.get(link.directory_id) ?? 'Open directory'}
          </Link>
        </li>
      ))}
    </ul>
  );
}
