import { memo } from 'react';
import { shortUrl } from './link-filters.ts';
import type { LinkItemProps } from './link-item-props.ts';
import { LinkMenu } from './link-menu.tsx';
import { LinkTags } from './link-tags.tsx';

/** A link in the grid view: the url shortened to 30 characters, 2 tags plus '+N'. */
function LinkCardItem({ link, canEdit, onEdit, onDelete }: LinkItemProps) {
  return (
    <article
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="link-card"
    >
      <div className="flex items-start justify-between gap-2">
        <a
          href={link.url}
          target="_blank"
          rel="noopener noreferrer"
          className="min-w-0 flex-1 truncate font-semibold text-slate-900 hover:underline"
        >
          {link.is_favorite && (
            <span className="mr-1 text-amber-500" aria-label="Favorite">
              ★
            </span>
          )}
          {link.title}
        </a>
        <LinkMenu link={link} canEdit={canEdit} onEdit={onEdit} onDelete={onDelete} />
      </div>
      <p className="mt-1 truncate text-xs text-slate-600" title={link.url}>
        {shortUrl(link.url)}
      </p>
      {(link.notes ?? link.description) && (
        <p className="mt-2 line-clamp-2 text-sm text-slate-700">{link.notes ?? link.description}</p>
      )}
      <div className="mt-auto pt-3">
        <LinkTags tags={link.tags} showMore />
      </div>
    </article>
  );
}

/** Memoized: a change to one link re-renders its own card, not every card in view. */
export const LinkCard = memo(LinkCardItem);
