import { useLiveQuery } from 'dexie-react-hooks';
import type { LinkboardDb } from '../../data/db.ts';
import type { MemberRow } from '../../data/rows.ts';

/** Every member row on this device, by directory id, sorted by address. Undefined while loading. */
export function useMembersByDirectory(db: LinkboardDb): Map<string, MemberRow[]> | undefined {
  return useLiveQuery(async () => {
    const rows = await db.directory_members.orderBy('user_email').toArray();
    const byDirectory = new Map<string, MemberRow[]>();
    for (const row of rows) byDirectory.set(row.directory_id, [...(byDirectory.get(row.directory_id) ?? []), row]);
    return byDirectory;
  }, [db]);
}
