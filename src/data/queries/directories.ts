import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../db.ts';
import type { DirectoryRow, MemberRow } from '../rows.ts';

/** Every directory the user owns or was shared, by name. Undefined while loading. */
export function useDirectories(db: LinkboardDb): DirectoryRow[] | undefined {
  return useLiveQuery(() => db.link_directories.orderBy('id').toArray().then(byName), [db]);
}

export function useMembers(db: LinkboardDb, directoryId: string): MemberRow[] | undefined {
  return useLiveQuery(
    () => db.directory_members.where('directory_id').equals(directoryId).sortBy('user_email'),
    [db, directoryId],
  );
}

function byName(rows: DirectoryRow[]): DirectoryRow[] {
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

type Dated = { created_at: string; id: string };

/**
 * Newest first, and rows made in the same millisecond (an import's) by id, descending: the order
 * of a reversed [directory_id+created_at+id] index (IndexedDB compares strings by code unit, as `<` does).
 */
export const newestFirstOrder = (a: Dated, b: Dated) =>
  b.created_at.localeCompare(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function newestFirst<T extends Dated>(rows: T[]): T[] {
  return rows.sort(newestFirstOrder);
}
