import { gradientOf } from '../../ui/directory-colors.ts';
import { openableUrl } from './open-url.ts';
import type { PublicCollection } from './public-api.ts';

/** One public directory on a public profile: its first 3 links and '+n more links' (docs/product.md, Public pages). */
export function ProfileCollectionCard({ collection }: { collection: PublicCollection }) {
  const more = Math.max(0, collection.link_count - collection.links.length);
  return (
    <li className="overflow-hidden rounded-2xl border border-slate-200 bg-surface shadow-sm">
      <div className={`h-2 bg-gradient-to-r ${gradientOf(collection.color)}`} />
      <div className="p-5">
        <h3 className="text-lg font-semibold text-slate-900">{collection.name}</h3>
        {collection.description && <p className="mt-1 text-sm text-slate-600">{collection.description}</p>}
        <ul className="mt-3 space-y-1">
          {collection.links.map((link) => (
            <li key={link.id}>
              <a
                href={openableUrl(link.url)}
                target="_blank"
                rel="noopener noreferrer"
                className="text-sm text-indigo-700 dark:text-indigo-300 hover:underline"
              >
                {link.title}
              </a>
            </li>
          ))}
        </ul>
        {more > 0 && <p className="mt-2 text-xs text-slate-500">+{more} more links</p>}
      </div>
    </li>
  );
}
