/** Link counts for the cards, the plan limits and the dashboard: read from the indexes only. */
import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';

export interface LinkStats {
  /** Links per directory id. */
  perDirectory: Map<string, number>;
  /** Links counting towards the user's own limit (those they own). */
  owned: number;
  /** Directories the user owns. */
  ownedDirectories: number;
}

/** Counts for the cards and the plan limits, read from the indexes only (no link rows). */
export function useLinkStats(db: LinkboardDb, userId: string): LinkStats | undefined {
  return useLiveQuery(async () => {
    // One IndexedDB count per directory (no keys or rows read), however many links there are.
    const [directoryIds, owned, ownedDirectories] = await Promise.all([
      db.link_directories.toCollection().primaryKeys(),
      db.saved_links.where('owner_id').equals(userId).count(),
      db.link_directories.where('owner_id').equals(userId).count(),
    ]);
    const counts = await Promise.all(directoryIds.map((id) => db.saved_links.where('directory_id').equals(id).count()));
    const perDirectory = new Map(directoryIds.map((id, i) => [String(id), counts[i] ?? 0]));
    return { perDirectory, owned, ownedDirectories };
  }, [db, userId]);
}

/**
 * Links of another owner's that this device holds (those in the directories shared with the
 * user): what their plan's link limit counts, as far as the user can see. Null id: undefined.
 */
export function useOwnerLinkCount(db: LinkboardDb, ownerId: string | null): number | undefined {
  return useLiveQuery(
    async () => (ownerId === null ? undefined : db.saved_links.where('owner_id').equals(ownerId).count()),
    [db, ownerId],
  );
}
