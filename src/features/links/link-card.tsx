import { memo } from 'react';
import { shortUrl } from './link-filters.ts';
import { sameItem, type LinkItemProps } from './link-item-props.ts';
import { LinkMenu } from './link-menu.tsx';
import { BrokenLinkMark } from './broken-links.tsx';
import { LinkIcon, LinkImage, NoPreview } from './link-preview-parts.tsx';
import { LinkTags } from './link-tags.tsx';

/**
 * A link in the grid view: the site's icon, the url shortened to 30 characters (after the site's
 * name when the page gave one), the preview image beside the notes or description, 2 tags plus '+N'.
 */
function LinkCardItem({ link, canEdit, onEdit, onDelete }: LinkItemProps) {
  return (
    <article
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-surface p-4 shadow-sm"
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
          <LinkIcon link={link} />
          {link.title}
        </a>
        <LinkMenu link={link} canEdit={canEdit} onEdit={onEdit} onDelete={onDelete} />
      </div>
      <p className="mt-1 flex min-w-0 text-xs text-slate-600">
        <span className="truncate" title={link.url}>
          {link.site_name ? `${link.site_name} · ` : ''}
          {shortUrl(link.url)}
        </span>
        <NoPreview link={link} canEdit={canEdit} />
        <BrokenLinkMark brokenAt={link.broken_at} />
      </p>
      {(link.notes ?? link.description ?? link.image_url) && (
        <div className="mt-2 flex gap-3">
          <p className="line-clamp-2 min-w-0 flex-1 text-sm text-slate-700">{link.notes ?? link.description}</p>
          <LinkImage link={link} />
        </div>
      )}
      <div className="mt-auto pt-3">
        <LinkTags tags={link.tags} showMore />
      </div>
    </article>
  );
}

/** Memoized by content: a change to one link re-renders its own card, not every card in view. */
export const LinkCard = memo(LinkCardItem, sameItem);
