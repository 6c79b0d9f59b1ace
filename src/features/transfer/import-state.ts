/**
 * The user's side of an import, read from the local database in one read-only transaction: their
 * own directories (reused by name), the identities of the links already in them (duplicates, by
 * the rule of src/domain/link-identity.ts, as each link stores it), what the Free limits
 * count, and the calendar items already there. Works offline like everything else.
 */
import type { LinkboardDb } from '../../data/db.ts';
import { keptCount } from '../../data/counts.ts';
import { urlKeyOf } from '../../data/link-index.ts';
import { whereGroup } from '../../data/group-range.ts';
import type { MutationContext } from '../../data/mutation-context.ts';
import { countsAsEventThisMonth } from '../../domain/limits.ts';
import type { Tier } from '../../domain/plans.ts';

export interface ImportState {
  tier: Tier;
  /** The user's own directories, oldest first. */
  directories: { id: string; name: string }[];
  /** Identity keys (linkIdentity) of the links already saved, by directory id. */
  keysByDirectory: Map<string, Set<string>>;
  /** Links and directories the user owns (the Free limits count these). */
  linkCount: number;
  directoryCount: number;
  /** Events (not tasks) created this month, for the Free monthly quota. */
  eventsThisMonth: number;
  /** Keys of the calendar items already there (eventKey). */
  eventKeys: Set<string>;
}

/** The identity of a calendar item for duplicates: kind, title and start instant. */
export function eventKey(item: { is_task: boolean; title: string; starts_at: string | null }): string {
  const time = item.starts_at === null ? NaN : Date.parse(item.starts_at);
  const start = Number.isNaN(time) ? '' : new Date(time).toISOString();
  return `${item.is_task ? 'task' : 'event'}|${item.title.trim()}|${start}`;
}

export async function readImportState(db: LinkboardDb, ctx: MutationContext): Promise<ImportState> {
  return db.transaction('r', [db.link_directories, db.saved_links, db.calendar_events, db.counts], async () => {
    const directories = await db.link_directories.where('owner_id').equals(ctx.userId).toArray();
    directories.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
    const keysByDirectory = new Map<string, Set<string>>(directories.map((dir) => [dir.id, new Set()]));
    const links = (
      await Promise.all(directories.map((dir) => whereGroup(db.saved_links, 'directory_id', dir.id).toArray()))
    ).flat();
    for (const link of links) {
      const key = urlKeyOf(link);
      if (key !== null) keysByDirectory.get(link.directory_id)?.add(key);
    }
    const linkCount = await keptCount(db, 'saved_links', 'owner_id', ctx.userId);
    const events = await db.calendar_events.where('owner_id').equals(ctx.userId).toArray();
    const now = ctx.now();
    return {
      tier: ctx.tier,
      directories: directories.map(({ id, name }) => ({ id, name })),
      keysByDirectory,
      linkCount,
      directoryCount: directories.length,
      eventsThisMonth: events.filter((event) => countsAsEventThisMonth(event, now, ctx.timeZone)).length,
      eventKeys: new Set(events.map(eventKey)),
    };
  });
}
