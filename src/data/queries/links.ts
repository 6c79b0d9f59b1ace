/** Link counts for the cards, the plan limits and the dashboard: the kept counts (index-counts.ts). */
import { useLiveQuery } from 'dexie-react-hooks';
import { keptCount, keptCounts } from '../counts.ts';
import type { LinkboardDb } from '../db.ts';

export interface LinkStats {
  /** Links per directory id. */
  perDirectory: Map<string, number>;
  /** Links counting towards the user's own limit (those they own). */
  owned: number;
  /** Directories the user owns. */
  ownedDirectories: number;
}

/** Counts for the cards and the plan limits, from the kept counts (no link rows or index entries). */
export function useLinkStats(db: LinkboardDb, userId: string): LinkStats | undefined {
  return useLiveQuery(async () => {
    // Kept counts (index-counts.ts): no link rows or index entries read.
    const [perDirectory, owned, ownedDirectories] = await Promise.all([
      keptCounts(db, 'saved_links', 'directory_id'),
      keptCount(db, 'saved_links', 'owner_id', userId),
      db.link_directories.where('owner_id').equals(userId).count(),
    ]);
    return { perDirectory, owned, ownedDirectories };
  }, [db, userId]);
}

/**
 * Links of another owner's that this device holds (those in the directories shared with the
 * user): what their plan's link limit counts, as far as the user can see. Null id: undefined.
 */
export function useOwnerLinkCount(db: LinkboardDb, ownerId: string | null): number | undefined {
  return useLiveQuery(
    async () => (ownerId === null ? undefined : keptCount(db, 'saved_links', 'owner_id', ownerId)),
    [db, ownerId],
  );
}
