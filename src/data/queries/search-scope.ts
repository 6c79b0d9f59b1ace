/**
 * What a directory's search matches against, read once while its box has the focus or holds a
 * search (link-window.ts): the links of a directory of up to `inMemoryMax` with their words,
 * matched in memory on each keystroke, or the ids of a longer one's links (each keystroke then
 * reads the token index and keeps the directory's: link-search.ts).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo, useState } from 'react';
import { keptCount } from '../counts.ts';
import type { LinkboardDb } from '../db.ts';
import type { HeldDirectory } from './held-directory.ts';
import { directoryLinkIds, heldLinksOf, type HeldLink } from './link-search.ts';
import { readSince, type SinceRead } from './live-rows.ts';

/** A directory's links with their words (`held`), or, for a longer one, its links' `ids`. */
export type SearchScope = SinceRead & { held: readonly HeldLink[] | null; ids: ReadonlySet<string> | null };

/** The scope read from IndexedDB (a live query's read). */
export function readSearchScope(db: LinkboardDb, directoryId: string, inMemoryMax: number): Promise<SearchScope> {
  return readSince(db, async () => {
    const count = await keptCount(db, 'saved_links', 'directory_id', directoryId);
    if (count > inMemoryMax) return { held: null, ids: await directoryLinkIds(db, directoryId) };
    return { held: await heldLinksOf(db, directoryId), ids: null };
  });
}

/**
 * The scope of the search of `directoryId` while `wanted`. While the directory's links are `held`
 * for the scroll (held-directory.ts), the scope is made of them: the links are not read, nor kept
 * in memory, a second time. When a write lets them go, the scope is read from IndexedDB, and the
 * last one made of them answers meanwhile, laid over like any live read by the writes committed
 * since it (`since`), so a search on screen does not fall back to the whole list while it reads.
 */
export function useSearchScope(
  db: LinkboardDb,
  directoryId: string,
  held: HeldDirectory | null,
  wanted: boolean,
  inMemoryMax: number,
): SearchScope | undefined {
  const fromHeld = useMemo(
    (): SearchScope | null =>
      wanted && held && held.links.length <= inMemoryMax
        ? { held: held.searchable, ids: null, since: held.since }
        : null,
    [wanted, held, inMemoryMax],
  );
  const readNow = wanted && fromHeld === null;
  const read = useLiveQuery(
    () => (readNow ? readSearchScope(db, directoryId, inMemoryMax) : undefined),
    [db, directoryId, readNow, inMemoryMax],
  );
  // The last scope made of the held links, kept from render to render (set while rendering, as
  // React does for a value derived from earlier renders) until a read or the end of the search
  // takes its place.
  const [last, setLast] = useState<{ db: LinkboardDb; directoryId: string; scope: SearchScope } | null>(null);
  if (fromHeld && last?.scope !== fromHeld) setLast({ db, directoryId, scope: fromHeld });
  else if (!fromHeld && last !== null && (read || !wanted)) setLast(null);
  if (!wanted) return undefined;
  if (fromHeld) return fromHeld;
  if (read) return read;
  return last && last.db === db && last.directoryId === directoryId ? last.scope : undefined;
}
