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

export const newestFirstOrder = (a: { created_at: string }, b: { created_at: string }) =>
  b.created_at.localeCompare(a.created_at);

export function newestFirst<T extends { created_at: string }>(rows: T[]): T[] {
  return rows.sort(newestFirstOrder);
}
