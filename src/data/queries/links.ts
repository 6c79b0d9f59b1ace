/** Link counts for the cards, the plan limits and the dashboard: the kept counts (index-counts.ts). */
import { useLiveQuery } from 'dexie-react-hooks';
import { useRef } from 'react';
import { keptCount, keptCounts } from '../counts.ts';
import type { LinkboardDb } from '../db.ts';

export interface LinkStats {
  /** Links per directory id. */
  perDirectory: ReadonlyMap<string, number>;
  /** Links counting towards the user's own limit (those they own). */
  owned: number;
  /** Directories the user owns. */
  ownedDirectories: number;
}

/** Whether two stats hold the same counts. */
export function sameStats(a: LinkStats, b: LinkStats): boolean {
  if (a.owned !== b.owned || a.ownedDirectories !== b.ownedDirectories) return false;
  if (a.perDirectory.size !== b.perDirectory.size) return false;
  for (const [id, n] of a.perDirectory) if (b.perDirectory.get(id) !== n) return false;
  return true;
}

/**
 * Counts for the cards and the plan limits, from the kept counts (no link rows or index entries);
 * null `userId`: nothing read (undefined). Read again after any write to the counts (a burst of
 * saves: every WAKE_MS, burst-wakes.ts), the answer is the same object while no count changed,
 * so a write the counts do not see (a favourite, a rename) re-renders nothing that uses them.
 */
export function useLinkStats(db: LinkboardDb, userId: string | null): LinkStats | undefined {
  const last = useRef<LinkStats | undefined>(undefined);
  return useLiveQuery(async () => {
    if (userId === null) return undefined;
    // Kept counts (index-counts.ts): no link rows or index entries read.
    const [perDirectory, owned, ownedDirectories] = await Promise.all([
      keptCounts(db, 'saved_links', 'directory_id'),
      keptCount(db, 'saved_links', 'owner_id', userId),
      db.link_directories.where('owner_id').equals(userId).count(),
    ]);
    const stats: LinkStats = { perDirectory, owned, ownedDirectories };
    if (last.current && sameStats(last.current, stats)) return last.current;
    last.current = stats;
    return stats;
  }, [db, userId]);
}

/**
 * Links of an owner's that this device holds (for another owner: those in the directories shared
 * with the user): what their plan's link limit counts, as far as the user can see. Null id: undefined.
 */
export function useOwnerLinkCount(db: LinkboardDb, ownerId: string | null): number | undefined {
  return useLiveQuery(
    async () => (ownerId === null ? undefined : keptCount(db, 'saved_links', 'owner_id', ownerId)),
    [db, ownerId],
  );
}
