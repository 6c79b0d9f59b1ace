import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import type { LinkboardDb } from '../db.ts';
import type { DirectoryRow, LinkRow, MemberRow } from '../rows.ts';
import { useLiveRows, type RowView } from './live-rows.ts';

/** Every directory the user owns or was shared, by name. Undefined while loading. */
export function useDirectories(db: LinkboardDb): DirectoryRow[] | undefined {
  return useLiveQuery(() => db.link_directories.orderBy('id').toArray().then(byName), [db]);
}

/** A directory's links, newest first; all links when `directoryId` is null. Changes show before their commit. */
export function useLinks(db: LinkboardDb, directoryId: string | null): LinkRow[] | undefined {
  const view = useMemo<RowView<LinkRow>>(
    () => ({
      belongs: (link) => directoryId === null || link.directory_id === directoryId,
      compare: newestFirstOrder,
    }),
    [directoryId],
  );
  return useLiveRows(
    db,
    'saved_links',
    () =>
      (directoryId === null
        ? db.saved_links.toArray()
        : db.saved_links.where('directory_id').equals(directoryId).toArray()
      ).then(newestFirst),
    [directoryId],
    view,
  );
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

const newestFirstOrder = (a: { created_at: string }, b: { created_at: string }) =>
  b.created_at.localeCompare(a.created_at);

export function newestFirst<T extends { created_at: string }>(rows: T[]): T[] {
  return rows.sort(newestFirstOrder);
}
