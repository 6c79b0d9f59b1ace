import { Link } from 'react-router-dom';
import type { SavedCopy } from '../../data/queries/saved-copies.ts';
import { directoryPath } from './link-filters.ts';

/** Directories named in full before the rest are counted ('and 2 more'). */
const NAMED = 3;

/**
 * 'Already saved in Reading' (docs/product.md, Duplicate links), each directory a link to it. A
 * live region that is always there (empty while the URL is saved nowhere), so the words are
 * announced when they appear.
 */
export function DuplicateNotice({
  copies,
  username,
  onFollow,
}: {
  copies: readonly SavedCopy[];
  username: string;
  onFollow?(): void;
}) {
  const named = copies.slice(0, NAMED);
  const more = copies.length - named.length;
  return (
    <div role="status" aria-live="polite">
      {copies.length > 0 && (
        <p className="rounded-lg border border-amber-300 dark:border-amber-700 bg-amber-50 dark:bg-amber-950/40 px-3 py-2 text-sm text-amber-900 dark:text-amber-100">
          Already saved in{' '}
          {named.map((copy, i) => (
            <span key={copy.directoryId}>
              {i > 0 && (i === named.length - 1 && more === 0 ? ' and ' : ', ')}
              <Link
                to={directoryPath(username, copy.directoryId)}
                onClick={onFollow}
                className="font-medium underline underline-offset-2"
              >
                {copy.directoryName}
              </Link>
            </span>
          ))}
          {more > 0 && ` and ${more} more`}
        </p>
      )}
    </div>
  );
}
