import { useId } from 'react';
import type { DirectoryRow } from '../../data/rows.ts';
import { sharingDescription, sharingLabel, type DirectorySharing } from './directory-sharing.ts';
import { gradientOf } from '../../ui/directory-colors.ts';
import { directoryBadge, linkCountLabel } from './link-filters.ts';

export interface DirectoryCardProps {
  directory: DirectoryRow;
  linkCount: number;
  canEdit: boolean;
  /** Shared with members (the owner's view) or with the user; null when not shared. */
  sharing: DirectorySharing | null;
  onOpen(): void;
  onEdit(): void;
}

/**
 * A directory in the grid (docs/product.md, Links screen): gradient, name, link count, description, edit, badge;
 * and, when shared, a 'Shared' badge saying with whom (all addresses in the description).
 */
export function DirectoryCard({ directory, linkCount, canEdit, sharing, onOpen, onEdit }: DirectoryCardProps) {
  const badge = directoryBadge(directory);
  const sharedId = useId();
  return (
    <article className="group relative overflow-hidden rounded-2xl border border-slate-200 bg-surface shadow-sm hover:shadow-md">
      <button
        type="button"
        onClick={onOpen}
        className="block w-full text-left"
        aria-label={`Open ${directory.name}`}
        aria-describedby={sharing ? sharedId : undefined}
      >
        <div className={`h-20 bg-gradient-to-br ${gradientOf(directory.color)}`} />
        <div className="p-4">
          <h2 className="truncate text-base font-semibold text-slate-900">{directory.name}</h2>
          <p className="mt-0.5 text-xs text-slate-600">{linkCountLabel(linkCount)}</p>
          {directory.description && <p className="mt-2 line-clamp-2 text-sm text-slate-700">{directory.description}</p>}
          <span
            className={`mt-3 inline-block rounded-full px-2 py-0.5 text-xs font-medium ${
              badge === 'Private'
                ? 'bg-slate-100 text-slate-700'
                : badge === 'Public'
                  ? 'bg-green-100 dark:bg-green-900/50 text-green-800 dark:text-green-200'
                  : 'bg-amber-100 dark:bg-amber-900/50 text-amber-800 dark:text-amber-200'
            }`}
          >
            {badge}
          </span>
          {sharing && (
            <span className="mt-2 flex min-w-0 items-center gap-2 text-xs text-slate-700">
              <span className="shrink-0 rounded-full bg-indigo-100 dark:bg-indigo-900/50 px-2 py-0.5 font-medium text-indigo-800 dark:text-indigo-200">
                Shared
              </span>
              <span className="truncate" title={sharingDescription(sharing)}>
                {sharingLabel(sharing)}
              </span>
              <span id={sharedId} hidden>
                {sharingDescription(sharing)}
              </span>
            </span>
          )}
        </div>
      </button>
      {canEdit && (
        <button
          type="button"
          onClick={onEdit}
          aria-label={`Edit ${directory.name}`}
          className="absolute top-2 right-2 rounded-lg bg-surface/90 px-2 py-1 text-xs font-medium text-slate-800 shadow hover:bg-surface"
        >
          Edit
        </button>
      )}
    </article>
  );
}
