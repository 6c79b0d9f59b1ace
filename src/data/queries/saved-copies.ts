/**
 * Where a URL is already saved (docs/product.md, Duplicate links): the user's links with the same
 * identity (src/domain/link-identity.ts) in the directories they own or edit, found through the
 * `_urlKey` index (link-index.ts), so the cost is the matches', not the links'. Links in a
 * directory shared with the user as a viewer do not count: the user did not save them and cannot
 * keep them there.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { linkIdentity } from '../../domain/link-identity.ts';
import { roleMay } from '../../domain/permissions.ts';
import { roleIn } from '../access.ts';
import type { LinkboardDb } from '../db.ts';
import type { MutationContext } from '../mutation-context.ts';
import type { DirectoryRow } from '../rows.ts';

export interface SavedCopy {
  linkId: string;
  directoryId: string;
  directoryName: string;
}

export type Saver = Pick<MutationContext, 'userId' | 'email'>;

/** The saved links with `key`, newest first, one per directory. */
export async function savedCopiesOf(db: LinkboardDb, key: string, who: Saver): Promise<SavedCopy[]> {
  return db.transaction('r', [db.saved_links, db.link_directories, db.directory_members], async () => {
    const links = await db.saved_links.where('_urlKey').equals(key).toArray();
    links.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    const directories = new Map<string, DirectoryRow | null>();
    const copies: SavedCopy[] = [];
    for (const link of links) {
      if (directories.has(link.directory_id)) continue;
      const directory = (await db.link_directories.get(link.directory_id)) ?? null;
      const counts = directory !== null && roleMay('link.update', await roleIn(db, directory, who));
      directories.set(link.directory_id, counts ? directory : null);
      if (counts) copies.push({ linkId: link.id, directoryId: directory.id, directoryName: directory.name });
    }
    return copies;
  });
}

/** Where the URL as typed is already saved; [] for one that is no URL. */
export function savedCopies(db: LinkboardDb, url: string, who: Saver): Promise<SavedCopy[]> {
  const key = linkIdentity(url);
  return key === null ? Promise.resolve([]) : savedCopiesOf(db, key, who);
}

/**
 * `savedCopies` as a live query, with the URL it answers for (so a caller can tell an answer for
 * what the field holds now from one for an earlier value); undefined until the first answer.
 */
export function useSavedCopies(
  db: LinkboardDb,
  url: string,
  who: Saver,
): { url: string; copies: SavedCopy[] } | undefined {
  const { userId, email } = who;
  return useLiveQuery(
    async () => ({ url, copies: await savedCopies(db, url, { userId, email }) }),
    [db, url, userId, email],
  );
}
