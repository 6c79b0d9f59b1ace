import { memo } from 'react';
import { sameItem, type LinkItemProps } from './link-item-props.ts';
import { LinkMenu } from './link-menu.tsx';
import { BrokenLinkMark } from './broken-links.tsx';
import { LinkIcon, NoPreview } from './link-preview-parts.tsx';
import { LinkTags } from './link-tags.tsx';

export const LIST_COLUMNS = 'grid grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,1.5fr)_4rem] items-center gap-3 px-4';

/** A link in the list view: Title, URL, Tags (at most 2), Actions. */
function LinkRowItemView({ link, canEdit, onEdit, onDelete }: LinkItemProps) {
  return (
    <div role="row" className={`${LIST_COLUMNS} h-full border-b border-slate-100 bg-surface`}>
      <span role="cell" className="truncate">
        <a
          href={link.url}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-slate-900 hover:underline"
        >
          {link.is_favorite && <span className="mr-1 text-amber-500">★</span>}
          <LinkIcon link={link} />
          {link.title}
        </a>
      </span>
      <span role="cell" className="flex min-w-0 text-sm text-slate-600">
        <span className="truncate" title={link.url}>
          {link.url}
        </span>
        <NoPreview link={link} canEdit={canEdit} />
        <BrokenLinkMark brokenAt={link.broken_at} />
      </span>
      <span role="cell" className="overflow-hidden">
        <LinkTags tags={link.tags} showMore={false} />
      </span>
      <span role="cell" className="flex justify-end">
        <LinkMenu link={link} canEdit={canEdit} onEdit={onEdit} onDelete={onDelete} />
      </span>
    </div>
  );
}

/** Memoized by content: a change to one link re-renders its own card, not every card in view. */
export const LinkRowItem = memo(LinkRowItemView, sameItem);
