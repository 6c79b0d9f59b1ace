import type { PublicLink } from './public-api.ts';
import { openableUrl } from './open-url.ts';

/** A directory's links for a visitor: each title opens its url in a new tab. */
export function PublicLinkGrid({ links }: { links: PublicLink[] }) {
  if (links.length === 0) {
    return <p className="py-10 text-center text-slate-600">No links in this directory yet.</p>;
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {links.map((link) => (
        <li key={link.id} className="rounded-xl border border-slate-200 bg-surface p-4 shadow-sm">
          <a
            href={openableUrl(link.url)}
            target="_blank"
            rel="noopener noreferrer"
            className="font-semibold text-indigo-700 dark:text-indigo-300 hover:underline"
          >
            {link.title}
          </a>
          <p className="mt-1 truncate text-sm text-slate-500">{link.url}</p>
          {link.description && <p className="mt-2 text-sm text-slate-700">{link.description}</p>}
          {link.tags && link.tags.length > 0 && (
            <p className="mt-2 flex flex-wrap gap-1">
              {link.tags.map((tag) => (
                <span key={tag} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                  {tag}
                </span>
              ))}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
