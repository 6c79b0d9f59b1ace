/**
 * The links the broken-link check found gone (docs/product.md, Broken links), newest mark first:
 * read through the `broken_at` index, which holds only marked links, so the filter costs what it
 * shows.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';
import type { LinkRow } from '../rows.ts';

export function useBrokenLinks(db: LinkboardDb, enabled: boolean): LinkRow[] | undefined {
  return useLiveQuery(
    async () => (enabled ? await db.saved_links.orderBy('broken_at').reverse().toArray() : []),
    [db, enabled],
  );
}
