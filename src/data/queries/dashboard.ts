/** Counts the dashboard shows that no other screen reads, from the indexes (docs/product.md, Dashboard, docs/product.md, Dashboard). */
import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';
import { countPollsCreatedSince, keptCount } from '../counts.ts';

export interface DashboardCounts {
  /** Links the user owns (what the Free plan's 30 counts), wherever they sit. */
  links: number;
  /** Polls the user created since `since` (public and team; hidden ones too: they count in the quota). */
  pollsSince: number;
}

/** Links owned and polls created since `since` (epoch ms: the start of the user's month); undefined while loading. */
export function useDashboardCounts(db: LinkboardDb, userId: string, since: number): DashboardCounts | undefined {
  return useLiveQuery(async () => {
    const [links, pollsSince] = await Promise.all([
      keptCount(db, 'saved_links', 'owner_id', userId),
      countPollsCreatedSince(db, userId, since),
    ]);
    return { links, pollsSince };
  }, [db, userId, since]);
}
