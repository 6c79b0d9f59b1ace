/**
 * The palette's index (docs/architecture.md, Command palette): the workspace's links, directories, events,
 * tasks and polls read from IndexedDB when the palette opens, kept as a few strings each (matcher.ts).
 * Read again, live, when one of the four tables changes while the palette is open.
 */
import type { LinkboardDb } from '../../data/db.ts';
import type { EventRow } from '../../data/rows.ts';
import { clean, fold, type EntryKind, type PaletteEntry } from './matcher.ts';

export interface PaletteIndex {
  readonly links: readonly PaletteEntry[];
  readonly directories: readonly PaletteEntry[];
  readonly events: readonly PaletteEntry[];
  readonly tasks: readonly PaletteEntry[];
  readonly polls: readonly PaletteEntry[];
}

export const EMPTY_INDEX: PaletteIndex = { links: [], directories: [], events: [], tasks: [], polls: [] };

/** A link's host, as shown under its title ('example.com'), or '' for an address that does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

function entry(kind: EntryKind, id: string, title: string, detail: string, rest: string, target: string) {
  const shown = clean(title).trim() || '(untitled)';
  return { kind, id, title: shown, detail: clean(detail), key: fold(shown), rest: fold(rest), target };
}

const newestFirst = <T extends { updated_at: string }>(rows: T[]) =>
  rows.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));

/**
 * One item per recurring series: its next occurrence from `now`, or its last one when all are past.
 * Single items as they are; the soonest first.
 */
function oneOfEachSeries(rows: EventRow[], now: string): EventRow[] {
  const bySeries = new Map<string, EventRow>();
  const single: EventRow[] = [];
  for (const row of rows) {
    if (!row.series_id) {
      single.push(row);
      continue;
    }
    const kept = bySeries.get(row.series_id);
    const at = row.starts_at ?? '';
    const keptAt = kept?.starts_at ?? '';
    const better = !kept || (at >= now ? keptAt < now || at < keptAt : keptAt < now && at > keptAt);
    if (better) bySeries.set(row.series_id, row);
  }
  return newestFirst([...single, ...bySeries.values()]);
}

/** Reads the index (in one read transaction, so its parts agree). */
export async function readPaletteIndex(db: LinkboardDb, now = new Date()): Promise<PaletteIndex> {
  const [links, directories, events, polls] = await db.transaction(
    'r',
    [db.saved_links, db.link_directories, db.calendar_events, db.voting_posts],
    () =>
      Promise.all([
        db.saved_links.toArray(),
        db.link_directories.toArray(),
        db.calendar_events.toArray(),
        db.voting_posts.toArray(),
      ]),
  );
  const items = oneOfEachSeries(events, now.toISOString());
  return {
    links: newestFirst(links).map((link) => {
      const host = hostOf(link.url);
      return entry(
        'link',
        link.id,
        link.title || host || link.url,
        host,
        `${link.url} ${link.description ?? ''}`,
        link.url,
      );
    }),
    directories: newestFirst(directories).map((dir) =>
      entry('directory', dir.id, dir.name, dir.description ?? '', dir.description ?? '', dir.id),
    ),
    events: items
      .filter((item) => !item.is_task)
      .map((item) => entry('event', item.id, item.title, item.starts_at ?? '', item.description ?? '', item.id)),
    tasks: items
      .filter((item) => item.is_task)
      .map((item) => entry('task', item.id, item.title, item.starts_at ?? '', item.description ?? '', item.id)),
    polls: newestFirst(polls)
      .filter((poll) => poll.is_active !== false)
      .map((poll) =>
        entry('poll', poll.id, poll.title, poll.description ?? '', poll.description ?? '', poll.directory_id ?? ''),
      ),
  };
}
